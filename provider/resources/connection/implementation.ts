/**
 * Connection: the settings by which the service reaches a database, warehouse, bucket or
 * service (facts, "Connections"). Every path carries the type. The settings are tried by the
 * service before the create, unless `testBeforeCreate` is false, so wrong ones create nothing.
 * Everything but the type updates in place with a PUT of what differs. A create whose outcome is
 * unknown looks for a connection of the type made since it was sent, with every value it can
 * show, before sending again (see shared/reconciler.ts).
 */
import {
  getConnectionById,
  connectionSettingsRecord,
  createConnection,
  deleteConnection,
  getConnectionSettings,
  listConnectionsRequest,
  testConnectionSettings,
  updateConnection,
  type ConnectionSettingsRecord,
} from "../../api/connections";
import { BadRequestError } from "../../client/errors";
import type { RequestFn } from "../../client/http";
import type { OperationContext } from "../../context";
import { AdoptionError, adoptionChange, objectToAdopt } from "../shared/adopt";
import { ResourceFailure } from "../shared/failures";
import type { ResourceImplementation } from "../shared/implementation";
import { standardOperations } from "../shared/operations";
import { createdLookup, newestListed } from "../shared/created-lookup";
import { SECRET_ATTRIBUTES } from "./attributes";
import { tableOperations, type ConnectionInputs, type ConnectionOutputs } from "./fields";
import { connectionExport } from "./export";
import { creationOrdered } from "../shared/batched-reads";

const KIND = "connection";

/** The service tries the settings; its refusal becomes the failure of `up`, with nothing made. */
async function testSettings(request: RequestFn, inputs: ConnectionInputs, body: object): Promise<void> {
  try {
    await testConnectionSettings(request, inputs.type, body);
  } catch (error) {
    if (!(error instanceof BadRequestError)) throw error;
    throw new ResourceFailure(
      `the service could not connect with these ${inputs.type} settings: ${error.serviceMessage}. Nothing was created; ` +
        "correct the settings, or set testBeforeCreate: false to create the connection anyway",
    );
  }
}

async function update(ctx: OperationContext, id: string, olds: ConnectionOutputs, news: ConnectionInputs): Promise<ConnectionOutputs> {
  return tableOperations.updated(olds, news, (body) => updateConnection(ctx.request, news.type, id, body));
}

async function adopt(ctx: OperationContext, importId: string, inputs: ConnectionInputs): Promise<ConnectionOutputs> {
  const record = await objectToAdopt(KIND, importId, () => getConnectionSettings(ctx.request, inputs.type, importId));
  if (record.type !== inputs.type) throw new AdoptionError(KIND, importId, `type is ${record.type}, not ${inputs.type}, and cannot be changed`);
  // The secrets the service never shows cannot be compared: they are always sent.
  const hidden = Object.fromEntries(SECRET_ATTRIBUTES.map((name) => [name, undefined]));
  const found = { ...tableOperations.outputs(record, inputs), ...hidden } as ConnectionOutputs;
  return adoptionChange(KIND, importId, () => update(ctx, importId, found, inputs));
}

/** The connection a create may have made: of its type, made since it was sent, with everything sent. */
export const createdConnection = createdLookup<ConnectionSettingsRecord, ConnectionInputs>({
  candidates: newestListed(connectionSettingsRecord, "connections", (inputs: ConnectionInputs) => listConnectionsRequest(inputs.type)),
  madeBy: (record, inputs) => tableOperations.hasSentValues(record, inputs),
});

/** A connection's address names its type; an import knows only the id, so it asks for the type first. */
async function typeOf(request: RequestFn, id: string, props: Partial<ConnectionOutputs>): Promise<string> {
  return props.type ?? (await getConnectionById(request, id)).type;
}

export const connectionImplementation = {
  ...standardOperations(tableOperations, {
    kind: KIND,
    create: (request, body, inputs) => createConnection(request, inputs.type, body),
    findCreated: createdConnection.find,
    beforeCreate: async ({ request }, inputs, body) => {
      if (tableOperations.desired("testBeforeCreate", inputs) !== false) await testSettings(request, inputs, body);
    },
    get: async (request, id, props) => getConnectionSettings(request, await typeOf(request, id, props), id),
    listed: creationOrdered(connectionExport),
    remove: ({ request }, id, props) => deleteConnection(request, props.type, id),
    update,
    adopt,
  }),
} satisfies ResourceImplementation<ConnectionInputs, ConnectionOutputs>;
