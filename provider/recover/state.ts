/**
 * A stack's state as `pulumi stack export` writes it, and the changes that adopt what a killed
 * deployment made: each pending create whose object was found becomes a resource with the
 * object's id, its inputs as recorded (secrets still encrypted) and, until the refresh that
 * follows fills them in, those inputs as its outputs: the dynamic resources' `__provider` among
 * them, which a refresh of a dynamic resource needs.
 */
import { RESOURCES, RESOURCE_KINDS, type ResourceKind } from "../resources/registry";
import { INPUTS_SET } from "../resources/shared/fields";

export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  initErrors?: string[];
  [field: string]: unknown;
}

export interface PendingOperation {
  resource: StateResource;
  type: string;
}

export interface Deployment {
  version: number;
  deployment: {
    manifest?: { time?: string };
    resources?: StateResource[];
    pending_operations?: PendingOperation[];
    [field: string]: unknown;
  };
}

/** The kind of a resource of either surface (`pulumi-nodejs:dynamic/etl:<Kind>`, `etl:index:<Kind>`), or undefined. */
export function kindOfType(type: string): ResourceKind | undefined {
  const match = /^(?:pulumi-nodejs:dynamic\/etl:|etl:index:)(\w+)$/.exec(type);
  return match !== null && (RESOURCE_KINDS as string[]).includes(match[1]!) ? (match[1] as ResourceKind) : undefined;
}

/** The creates the killed deployment left pending, of this provider's kinds. */
export function pendingCreates(state: Deployment): PendingOperation[] {
  return (state.deployment.pending_operations ?? []).filter((op) => op.type === "creating" && kindOfType(op.resource.type) !== undefined);
}

/** The ids the stack holds already, by kind: never another resource's object. */
export function idsInState(state: Deployment): Map<ResourceKind, Set<string>> {
  const ids = new Map<ResourceKind, Set<string>>();
  for (const resource of state.deployment.resources ?? []) {
    const kind = kindOfType(resource.type);
    if (kind === undefined || resource.id === undefined || resource.id === "") continue;
    ids.set(kind, (ids.get(kind) ?? new Set()).add(resource.id));
  }
  return ids;
}

/** The key the engine writes in place of a value of a special kind; a secret's signature. */
const SIGNATURE = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";

/** A value of `stack export --show-secrets` as the provider receives it: each secret's plain value in place. */
export function plainValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainValue);
  if (value === null || typeof value !== "object") return value;
  const object = value as Record<string, unknown>;
  if (object[SIGNATURE] === SECRET && typeof object.plaintext === "string") return plainValue(JSON.parse(object.plaintext));
  return Object.fromEntries(Object.entries(object).map(([key, field]) => [key, plainValue(field)]));
}

/** The inputs a pending create sent, as the kind's provider received them. */
export function sentInputs(op: PendingOperation): Record<string, unknown> {
  const { __provider: _provider, ...inputs } = plainValue(op.resource.inputs ?? {}) as Record<string, unknown>;
  return inputs;
}

/** The resource a pending create becomes once its object is found: refreshed next, so its outputs are the inputs for now. */
export function adoptedResource(kind: ResourceKind, op: PendingOperation, id: string): StateResource {
  const inputs = op.resource.inputs ?? {};
  // Kinds with inputs left to the service when omitted record which were given, as a create does.
  const recordsGiven = Object.values(RESOURCES[kind].tableOperations.table).some((field) => (field as { unmanagedWhenOmitted?: boolean }).unmanagedWhenOmitted);
  const given = Object.keys(inputs).filter((name) => !name.startsWith("__"));
  return { ...op.resource, id, outputs: { ...inputs, ...(recordsGiven ? { [INPUTS_SET]: given } : {}) } };
}

/** The state with the found objects in it, and without the pending creates of `cleared` (urns). */
export function withAdopted(state: Deployment, adopted: StateResource[], cleared: Set<string>): Deployment {
  const pending = (state.deployment.pending_operations ?? []).filter((op) => !(op.type === "creating" && cleared.has(op.resource.urn)));
  return { ...state, deployment: { ...state.deployment, resources: [...(state.deployment.resources ?? []), ...adopted], pending_operations: pending } };
}

/** The state with these pending creates back: ones left for the user to settle. */
export function withPending(state: Deployment, ops: PendingOperation[]): Deployment {
  return { ...state, deployment: { ...state.deployment, pending_operations: [...(state.deployment.pending_operations ?? []), ...ops] } };
}

/** The state with the engine's "carry on" mark on resources whose objects are not settled: the next `up` updates them. */
export function withUnsettled(state: Deployment, reasons: Map<string, string>): Deployment {
  const resources = (state.deployment.resources ?? []).map((resource) => {
    const reason = reasons.get(resource.urn);
    return reason === undefined ? resource : { ...resource, initErrors: [reason] };
  });
  return { ...state, deployment: { ...state.deployment, resources } };
}
