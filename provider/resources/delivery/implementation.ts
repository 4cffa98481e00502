/**
 * Delivery: a source connection delivered into a destination connection every interval (facts,
 * "Deliveries"). The service sets a new delivery up before it runs, so `create` waits until it
 * is `enabled`, up to `timeoutSeconds`, with its status on the resource's row; a delivery that
 * turns `disabled` instead fails with the service's reason. The service has no update: every
 * change of what it holds replaces the delivery; `timeoutSeconds` changes without an API call,
 * unless the delivery is still being set up from an earlier `up`, which is then waited for again.
 * A create whose outcome is unknown looks for a delivery made since it was sent, by this user,
 * with everything sent, before sending again (see shared/reconciler.ts).
 */
import { createDelivery, deleteDelivery, deliveryRecord, getDelivery, listNewestDeliveriesRequest, type DeliveryRecord } from "../../api/deliveries";
import type { Reporter } from "../../progress";
import type { OperationContext } from "../../context";
import { AdoptionError, objectToAdopt } from "../shared/adopt";
import { changedFields } from "../shared/diff";
import { keepingObject, lastReading, ResourceFailure } from "../shared/failures";
import { unlessGone } from "../shared/gone";
import type { ResourceImplementation } from "../shared/implementation";
import { standardOperations } from "../shared/operations";
import { createdLookup, newestListed } from "../shared/created-lookup";
import { pollUntil, progressLines, readingFrom, WaitTimeoutError } from "../shared/wait";
import { tableOperations, type DeliveryInputs, type DeliveryOutputs } from "./fields";
import { deliveryExport } from "./export";
import { creationOrdered } from "../shared/batched-reads";

const KIND = "delivery";

function timeoutOf(inputs: Partial<DeliveryOutputs>): number {
  return tableOperations.desired("timeoutSeconds", inputs as DeliveryInputs) as number;
}

/** "delivery 12 idle", once per status. */
function progressPrinter(report: Reporter, id: string): (record: DeliveryRecord | undefined) => void {
  return progressLines(report, (record) => (record === undefined ? undefined : `delivery ${id} ${record.status}`));
}

/** Waits until the service has set the delivery up: enabled, disabled or gone. */
async function waitUntilSetUp(ctx: OperationContext, first: DeliveryRecord, inputs: DeliveryInputs): Promise<DeliveryRecord | undefined> {
  const id = String(first.id);
  const seconds = timeoutOf(inputs);
  try {
    const { current } = await pollUntil<DeliveryRecord | undefined>({
      read: readingFrom<DeliveryRecord | undefined>(first, () => unlessGone(getDelivery(ctx.request, id))),
      isDone: (record) => record === undefined || record.status !== "idle",
      onProgress: progressPrinter(ctx.report, id),
      timeoutMs: seconds * 1000,
      signal: ctx.signal,
      outageToleranceMs: ctx.outageToleranceMs,
    });
    return current;
  } catch (error) {
    const last = lastReading<DeliveryRecord | undefined>(error, first) ?? first;
    if (error instanceof WaitTimeoutError) {
      throw new ResourceFailure(
        `delivery ${id} is not set up after ${seconds} s (it is ${last.status}); it stays in the stack and the next \`pulumi up\` waits for it again (timeoutSeconds sets how long)`,
        id,
        tableOperations.outputs(last, inputs),
      );
    }
    throw keepingObject(
      error,
      {
        what: `delivery ${id} (it is ${last.status})`,
        id,
        properties: tableOperations.outputs(last, inputs),
        next: "the next `pulumi up` waits for it again",
      },
      ctx.signal,
    );
  }
}

/**
 * The outputs of a delivery once enabled. A disabled one never runs: it stays in the stack, so
 * `destroy` removes it, and the failure says why and how to get a working one.
 */
export async function settled(ctx: OperationContext, record: DeliveryRecord, inputs: DeliveryInputs): Promise<DeliveryOutputs> {
  const id = String(record.id);
  const current = record.status === "idle" ? await waitUntilSetUp(ctx, record, inputs) : record;
  if (current === undefined) throw new ResourceFailure(`delivery ${id} was deleted before it was set up`);
  if (current.status === "disabled") {
    const reason = current.status_message ?? "the service gives no reason";
    throw new ResourceFailure(
      `delivery ${id} is disabled: ${reason}. It runs nothing; it stays in the stack until it is replaced (\`pulumi up --replace\`) or destroyed`,
      id,
      tableOperations.outputs(current, inputs),
    );
  }
  return tableOperations.outputs(current, inputs);
}

/** Only `timeoutSeconds` updates; a delivery not yet enabled (an earlier wait ended early) is waited for again. */
async function update(ctx: OperationContext, id: string, olds: DeliveryOutputs, news: DeliveryInputs): Promise<DeliveryOutputs> {
  if (olds.status === "enabled") return tableOperations.withOwnInputs(olds, news);
  return settled(ctx, await getDelivery(ctx.request, id), news);
}

async function adopt(ctx: OperationContext, importId: string, inputs: DeliveryInputs): Promise<DeliveryOutputs> {
  const { request } = ctx;
  const record = await objectToAdopt(KIND, importId, () => getDelivery(request, importId));
  const found = tableOperations.outputs(record, inputs);
  // The service has no update, so what differs cannot be brought to the inputs.
  const differing = changedFields(tableOperations.rules(inputs), found, inputs);
  if (differing.length > 0)
    throw new AdoptionError(
      KIND,
      importId,
      `it differs from the inputs in ${differing.join(", ")}, and a delivery cannot be changed: make the inputs match it`,
    );
  return settled(ctx, record, inputs);
}

/** The delivery a create may have made: made since it was sent, by this user, with everything sent. */
export const createdDelivery = createdLookup<DeliveryRecord, DeliveryInputs>({
  candidates: newestListed(deliveryRecord, "deliveries", () => listNewestDeliveriesRequest),
  madeBy: (record, inputs, owners) => owners.ownerMatches(record.owner_id) && tableOperations.hasSentValues(record, inputs),
});

export const deliveryImplementation = {
  ...standardOperations(tableOperations, {
    kind: KIND,
    create: createDelivery,
    findCreated: createdDelivery.find,
    get: getDelivery,
    listed: creationOrdered(deliveryExport),
    remove: ({ request }, id) => deleteDelivery(request, id),
    update,
    adopt,
    settle: (ctx, record, inputs) => settled(ctx, record, inputs),
  }),
} satisfies ResourceImplementation<DeliveryInputs, DeliveryOutputs>;
