/**
 * Hook: tells a web address, a Slack channel, email addresses, a HipChat room or PagerDuty of job
 * and cluster events (facts, "Hooks"). Everything but the type updates in place with a PUT of
 * what differs; a new `saltRotation` asks for a new salt. A create whose outcome is unknown looks
 * for a hook made since it was sent with everything asked for before sending again (see
 * shared/reconciler.ts).
 */
import { createHook, deleteHook, getHook, hookRecord, listHooksRequest, resetHookSalt, updateHook, type HookRecord } from "../../api/hooks";
import type { OperationContext } from "../../context";
import { AdoptionError, adoptionChange, objectToAdopt } from "../shared/adopt";
import { sameValue } from "../shared/diff";
import type { ResourceImplementation } from "../shared/implementation";
import { standardOperations } from "../shared/operations";
import { createdLookup, newestListed } from "../shared/created-lookup";
import { tableOperations, type HookInputs, type HookOutputs } from "./fields";
import { hookExport } from "./export";
import { creationOrdered } from "../shared/batched-reads";

const KIND = "hook";

/** A PUT of what differs, then a new salt when `saltRotation` changed; no call when nothing does. */
async function update(ctx: OperationContext, id: string, olds: HookOutputs, news: HookInputs): Promise<HookOutputs> {
  const { request } = ctx;
  const outputs = await tableOperations.updated(olds, news, (body) => updateHook(request, id, body));
  if (sameValue(olds.saltRotation, news.saltRotation)) return outputs;
  return { ...outputs, salt: await resetHookSalt(request, id) };
}

async function adopt(ctx: OperationContext, importId: string, inputs: HookInputs): Promise<HookOutputs> {
  const record = await objectToAdopt(KIND, importId, () => getHook(ctx.request, importId));
  if (record.type !== inputs.type) throw new AdoptionError(KIND, importId, `type is ${record.type}, not ${inputs.type}, and cannot be changed`);
  // The settings the service hides cannot be compared: they are always sent.
  const found: HookOutputs = { ...tableOperations.outputs(record, inputs), settings: undefined };
  return adoptionChange(KIND, importId, () => update(ctx, importId, found, inputs));
}

/** The hook a create may have made: of its type, made since it was sent (when the service says), with everything it can show. */
export const createdHook = createdLookup<HookRecord, HookInputs>({
  candidates: newestListed(hookRecord, "hooks", (inputs: HookInputs) => listHooksRequest(inputs.type)),
  madeBy: (record, inputs) => tableOperations.hasSentValues(record, inputs),
});

export const hookImplementation = {
  ...standardOperations(tableOperations, {
    kind: KIND,
    create: createHook,
    findCreated: createdHook.find,
    get: getHook,
    listed: creationOrdered(hookExport),
    remove: ({ request }, id) => deleteHook(request, id),
    update,
    adopt,
  }),
} satisfies ResourceImplementation<HookInputs, HookOutputs>;
