/**
 * Package: a data flow the service runs (facts, "Packages"). Everything but the flow type updates
 * in place with a PUT of what differs; each create and update is followed by a validation
 * (unless `validate: false`), and an invalid package fails `up` with every broken rule named
 * while staying in the stack as updated, so the next `up` validates it again rather than making
 * another. The service's delete is soft: destroy archives the package, and an archived package
 * reads as gone. A create whose outcome is unknown looks for a package made since it was sent
 * with everything asked for before sending again (see shared/reconciler.ts).
 */
import {
  archivePackage,
  createPackage,
  exportPackage,
  getPackage,
  latestPackageValidation,
  listNewPackagesRequest,
  packageRecord,
  updatePackage,
  validatePackageNow,
  type PackageRecord,
  type PackageValidationRecord,
} from "../../api/packages";
import type { RequestFn } from "../../client/http";
import type { OperationContext } from "../../context";
import { AdoptionError, adoptionChange, objectToAdopt } from "../shared/adopt";
import { sameValue } from "../shared/diff";
import { keepingObject, ResourceFailure } from "../shared/failures";
import type { ResourceImplementation } from "../shared/implementation";
import { creationOrdered } from "../shared/batched-reads";
import { standardOperations } from "../shared/operations";
import { createdInWindow, createdSince } from "../shared/reconcile";
import { ANY_OWNER, type OwnerCheck } from "../shared/reconciler";
import { referenceReads, type ReferenceReads } from "../shared/referenced-objects";
import { tableOperations, type PackageInputs, type PackageOutputs, type PackageState } from "./fields";
import type { DataFlow } from "../../../contract/data-flow";
import { refuseMistypedConnections } from "./connection-types";
import { EMPTY_FLOW, flowOfService, hasNoComponents } from "./flow";
import { fromTemplate, withTemplateConnections } from "./template";

const KIND = "package";

/** The package with its flow, as the export document holds it. */
async function readState(request: RequestFn, id: string | number, record?: PackageRecord): Promise<PackageState> {
  const pkg = record ?? (await getPackage(request, id));
  const exported = await exportPackage(request, id);
  return { ...pkg, data_flow_json: exported.data_flow_json };
}

function describeErrors(validation: PackageValidationRecord): string {
  return validation.errors
    .map((error) => `${error.component === undefined ? "" : `${error.component}: `}${error.message}${error.rule === undefined ? "" : ` (rule ${error.rule})`}`)
    .join("; ");
}

/** The validation's answer; whatever keeps it from coming (an outage, a cancellation) keeps the package in the stack. */
async function validationOf(ctx: OperationContext, id: string, state: PackageState, inputs: PackageInputs): Promise<PackageValidationRecord> {
  try {
    return await validatePackageNow(ctx.request, id);
  } catch (error) {
    throw keepingObject(
      error,
      {
        what: `the validation of package ${id}`,
        id,
        properties: tableOperations.outputs(state, inputs),
        next: "the next `pulumi up` validates it again",
      },
      ctx.signal,
    );
  }
}

/**
 * Validates the package when the inputs ask for it; an invalid one fails, staying in the stack as
 * it now is. A package without a flow is not validated: the service would fail it for having no
 * components, and such a package is one still to be designed.
 */
async function withValidation(ctx: OperationContext, id: string, state: PackageState, inputs: PackageInputs): Promise<PackageOutputs> {
  if (tableOperations.desired("validate", inputs) === false || hasNoComponents(flowOfService(state.data_flow_json)))
    return tableOperations.outputs(state, inputs);
  const validation = await validationOf(ctx, id, state, inputs);
  const outputs = tableOperations.outputs({ ...state, validation }, inputs);
  if (validation.status !== "failed") return outputs;
  const message = `package ${id} is invalid: ${describeErrors(validation)}. It stays in the stack as updated; fix the flow, and the next \`pulumi up\` validates it again`;
  throw new ResourceFailure(message, id, outputs);
}

/**
 * A template's flow as last seen (read, when a set-up stopped before it was), with the
 * connections the inputs now give; undefined when that changes nothing.
 */
async function connectedTemplateFlow(request: RequestFn, id: string, olds: PackageOutputs, news: PackageInputs): Promise<DataFlow | undefined> {
  if (!fromTemplate(news)) return undefined;
  const flow = olds.dataFlow ?? flowOfService((await exportPackage(request, id)).data_flow_json) ?? EMPTY_FLOW;
  const connected = withTemplateConnections(flow, news);
  return sameValue(connected, olds.dataFlow) ? undefined : connected;
}

/** A PUT of what differs, then a validation; with nothing to send, a validation only when the last one did not pass. */
async function update(
  ctx: OperationContext,
  id: string,
  olds: PackageOutputs,
  news: PackageInputs,
  referenced: ReferenceReads = referenceReads(ctx.request),
): Promise<PackageOutputs> {
  const { request } = ctx;
  const body = tableOperations.updateBody(olds, news);
  const connected = await connectedTemplateFlow(request, id, olds, news);
  if (connected !== undefined) body.data_flow_json = connected;
  if (Object.keys(body).length > 0) {
    await refuseMistypedConnections(referenced, body.data_flow_json as DataFlow | undefined);
    const record = await updatePackage(request, id, body);
    return withValidation(ctx, id, { ...record, data_flow_json: body.data_flow_json ?? olds.dataFlow }, news);
  }
  const revalidate = tableOperations.desired("validate", news) !== false && olds.validationStatus !== "completed";
  if (!revalidate) return tableOperations.withOwnInputs(olds, news);
  return withValidation(ctx, id, await readState(request, id), news);
}

async function adopt(ctx: OperationContext, importId: string, inputs: PackageInputs): Promise<PackageOutputs> {
  const { request } = ctx;
  const record = await objectToAdopt(KIND, importId, () => getPackage(request, importId));
  if (record.status === "archived") throw new AdoptionError(KIND, importId, "it is archived, and the service has no way to restore it");
  const flowType = tableOperations.desired("flowType", inputs);
  if ((record.flow_type ?? "dataflow") !== flowType)
    throw new AdoptionError(KIND, importId, `flow type is ${record.flow_type}, not ${String(flowType)}, and cannot be changed`);
  const found = tableOperations.outputs(await readState(request, importId, record), inputs);
  // A found package is validated whatever it was: the inputs decide.
  return adoptionChange(KIND, importId, () => update(ctx, importId, { ...found, validationStatus: undefined }, inputs));
}

/** Whether a create sent at `sentAt` may have made this package: made since then, by this user, with every field asked for. */
async function isPackageCreatedBy(request: RequestFn, record: PackageRecord, inputs: PackageInputs, sentAt: number, owners: OwnerCheck): Promise<boolean> {
  if (!createdInWindow(record.created_at, sentAt) || !owners.ownerMatches(record.owner_id) || record.status !== "active") return false;
  const state = await readState(request, record.id, record);
  // A template's flow is the service's to fill in: the other values tell.
  return (
    tableOperations.hasSentValues(state, inputs) &&
    (fromTemplate(inputs) || sameValue(flowOfService(state.data_flow_json), tableOperations.desired("dataFlow", inputs)))
  );
}

/**
 * A package just made from a template: its flow read back, then connected and brought to the
 * inputs by one update. Whatever stops that keeps the package in the stack; the next `up`'s diff
 * shows the connections still to set.
 */
async function settleFromTemplate(ctx: OperationContext, record: PackageState, inputs: PackageInputs): Promise<PackageOutputs> {
  const id = String(record.id);
  let made: PackageOutputs = tableOperations.outputs(record, inputs);
  try {
    made = tableOperations.outputs(await readState(ctx.request, id, record), inputs);
    return await update(ctx, id, { ...made, validationStatus: undefined }, inputs);
  } catch (error) {
    throw keepingObject(
      error,
      { what: `the set-up of package ${id} from template ${inputs.templateId}`, id, properties: made, next: "the next `pulumi up` sets its connections" },
      ctx.signal,
    );
  }
}

export async function findCreatedPackage(request: RequestFn, inputs: PackageInputs, sentAt: number, owners: OwnerCheck = ANY_OWNER): Promise<PackageRecord[]> {
  const recent = await createdSince(request, listNewPackagesRequest(), packageRecord, "packages", sentAt, (record) => record.created_at);
  const named = recent.filter((record) => record.name === inputs.name);
  const matches = await Promise.all(named.map((record) => isPackageCreatedBy(request, record, inputs, sentAt, owners)));
  return named.filter((_, index) => matches[index]);
}

/**
 * The listing a refresh of many packages reads, oldest first: the order a stack made them in.
 * Its `since` keeps the packages updated at or after a time, among them every one made since:
 * the packages made before a stack's (another stack's, a history) cost one page, not a GET each.
 */
const PACKAGE_LISTING = creationOrdered({
  listing: { method: "GET", path: "/packages", query: { sort: "created", direction: "asc", limit: 100 } },
  item: packageRecord,
});

/**
 * A package from its record, as the listing or its own GET shows it. Every change of a package
 * moves its `updated_at` (an update, and a deleted connection it uses, which invalidates it):
 * while that is the one recorded, the flow, the versions and the last validation are the ones
 * the stack holds, and the record is all the read costs. Otherwise its export and its latest
 * validation are read too; an archived package reads as gone, so nothing more is read of it.
 */
async function completed(request: RequestFn, record: PackageRecord, id: string, props: PackageOutputs): Promise<PackageState> {
  if (record.status === "archived") return record;
  if (record.updated_at !== props.updatedAt || props.dataFlow === undefined) {
    return { ...(await readState(request, id, record)), validation: await latestPackageValidation(request, id) };
  }
  const validation = props.validationStatus === undefined ? undefined : { status: props.validationStatus, errors: props.validationErrors ?? [] };
  return {
    ...record,
    version: props.version,
    flow_version: props.flowVersion,
    package_version: props.packageVersion,
    data_flow_json: props.dataFlow,
    ...(validation === undefined ? {} : { validation }),
  };
}

const operations = standardOperations(tableOperations, {
  kind: KIND,
  beforeCreate: (_ctx, inputs, _body, referenced) => refuseMistypedConnections(referenced, inputs.dataFlow),
  create: async (request, body, inputs): Promise<PackageState> => ({
    ...(await createPackage(request, body)),
    // A template's flow is the service's: read back when the package settles.
    ...(fromTemplate(inputs) ? {} : { data_flow_json: tableOperations.desired("dataFlow", inputs) }),
  }),
  findCreated: findCreatedPackage,
  get: async (request, id, props) => completed(request, await getPackage(request, id), id, props),
  listed: PACKAGE_LISTING,
  fromListed: completed,
  remove: (ctx, id) => archivePackage(ctx.request, id),
  update,
  adopt,
  settle: async (ctx, record: PackageState, inputs) =>
    fromTemplate(inputs)
      ? settleFromTemplate(ctx, record, inputs)
      : withValidation(ctx, String(record.id), { ...record, data_flow_json: record.data_flow_json ?? tableOperations.desired("dataFlow", inputs) }, inputs),
});

export const packageImplementation = {
  ...operations,

  /** An archived package is gone as far as the stack goes: destroy archives, and nothing restores one. */
  async read(ctx: OperationContext, id: string, props: PackageOutputs) {
    const result = await operations.read(ctx, id, props);
    return result.props?.status === "archived" ? {} : result;
  },
} satisfies ResourceImplementation<PackageInputs, PackageOutputs>;
