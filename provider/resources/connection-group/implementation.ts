/**
 * ConnectionGroup: a named set of an account's database and cloud-storage connections (spec 2.7).
 *
 * No input change replaces the group. A replacement can still be forced (`pulumi up
 * --replace`); names are unique per account, so the class deletes the old group first unless
 * told otherwise. A create whose outcome is unknown looks for the group by its exact name before
 * sending again, and brings a group it finds to the inputs (see shared/reconciler.ts).
 */
import {
  createConnectionGroup,
  deleteConnectionGroup,
  connectionGroupRecord,
  getConnectionGroup,
  searchConnectionGroupsRequest,
  updateConnectionGroup,
  type ConnectionGroupRecord,
  type UpdateConnectionGroupBody,
} from "../../api/connection-groups";
import { EtlApiError } from "../../client/errors";
import type { RequestFn } from "../../client/http";
import { collectAllPages } from "../../client/pagination";
import type { OperationContext } from "../../context";
import { adoptionChange, objectToAdopt, orInTheWay } from "../shared/adopt";
import { ResourceFailure } from "../shared/failures";
import type { ResourceImplementation } from "../shared/implementation";
import { standardOperations } from "../shared/operations";
import { createdLookup } from "../shared/created-lookup";
import { tableOperations, type ConnectionGroupInputs, type ConnectionGroupOutputs } from "./fields";
import { connectionGroupExport } from "./export";

const KIND = "connection group";

/** A PUT of what differs, so unchanged assignments are not rewritten; no call when nothing does. */
function update(ctx: OperationContext, id: number, olds: ConnectionGroupOutputs, news: ConnectionGroupInputs): Promise<ConnectionGroupOutputs> {
  return tableOperations.updated(olds, news, (body) => updateConnectionGroup(ctx.request, id, body as UpdateConnectionGroupBody));
}

async function adopt(ctx: OperationContext, importId: string, inputs: ConnectionGroupInputs): Promise<ConnectionGroupOutputs> {
  const id = Number(importId);
  const record = await objectToAdopt(KIND, importId, () => getConnectionGroup(ctx.request, id));
  return adoptionChange(KIND, importId, () => update(ctx, id, tableOperations.outputs(record, inputs), inputs));
}

async function groupsNamed(request: RequestFn, name: string): Promise<ConnectionGroupRecord[]> {
  const found = await collectAllPages(request, searchConnectionGroupsRequest(name), connectionGroupRecord, { what: "connection groups" });
  return found.filter((group) => group.name === name);
}

/**
 * The group a create may have made: made since it was sent, with every field the request sent
 * (name, description and connections). Names are unique in the account, so an older group of
 * that name means the create could not have succeeded; a group of that name with another
 * description or other connections is someone else's (another stack's), never taken.
 */
export const createdGroup = createdLookup<ConnectionGroupRecord, ConnectionGroupInputs>({
  candidates: (request, inputs) => groupsNamed(request, inputs.name),
  madeBy: (group, inputs) => tableOperations.hasSentValues(group, inputs),
});

/**
 * A group found after an unknown outcome is brought to the inputs the way an adoption is. It is
 * this stack's from now on, so a failure keeps it in state and the next `up` updates it.
 */
async function settleFound(ctx: OperationContext, record: ConnectionGroupRecord, inputs: ConnectionGroupInputs): Promise<ConnectionGroupOutputs> {
  const found = tableOperations.outputs(record, inputs);
  try {
    return await update(ctx, record.id, found, inputs);
  } catch (error) {
    if (error instanceof EtlApiError) throw new ResourceFailure(`${KIND} ${record.id}: ${error.message}`, String(record.id), found);
    throw error;
  }
}

export const connectionGroupImplementation = {
  ...standardOperations(tableOperations, {
    kind: KIND,
    create: createConnectionGroup,
    findCreated: createdGroup.find,
    get: (request, id) => getConnectionGroup(request, Number(id)),
    listed: connectionGroupExport,
    remove: (ctx, id) => deleteConnectionGroup(ctx.request, Number(id)),
    update: (ctx, id, olds, news) => update(ctx, Number(id), olds, news),
    adopt,
    refused: (error, { request }, inputs) =>
      orInTheWay(error, {
        kind: KIND,
        which: `named ${JSON.stringify(inputs.name)}`,
        holders: () => groupsNamed(request, inputs.name),
        otherwise: "choose another name",
      }),
    settle: async (ctx, record, inputs, found) => (found ? settleFound(ctx, record, inputs) : tableOperations.outputs(record, inputs)),
    // The account holds a name once.
    diffOptions: { deleteBeforeReplace: true },
  }),
} satisfies ResourceImplementation<ConnectionGroupInputs, ConnectionGroupOutputs>;
