/**
 * Resources given as inputs on the plugin. The engine sends a reference (URN and id) where a
 * program passes a resource; the inputs that take one (shared/references.ts) get what the
 * resource code expects there: a Connection's `{ id, type }`, a Package's or a Cluster's id.
 * A connection's type is the one its own Check gave (the same deployment checks a connection
 * before anything that names it); otherwise the service is asked, once per id. A reference of
 * another kind, or to a connection the account does not have, is refused by Check with the input
 * named. While the id is still unknown (a resource made in the same `up`), the value is unknown
 * too, and the check of the update, which knows it, decides.
 */
import { UNKNOWN_VALUE } from "../engine-values";
import { getConnectionById } from "../api/connections";
import { NotFoundError } from "../client/errors";
import type { OperationContext } from "../context";
import { isUnknown } from "../resources/shared/check";
import { RESOURCE_INPUTS } from "../resources/registry";
import type { ReferencedKind } from "../resources/shared/references";
import { typeToken } from "./schema";
import { referenceId, type ResourceReference, type Values } from "./values";

type Path = ReadonlyArray<string | number>;

/** A reference as found by `fromStruct`, resolved by `resolveReferences` once the kind's inputs are known. */
export class FoundReference {
  constructor(
    readonly reference: ResourceReference,
    readonly path: Path,
  ) {}
}

export const keepReference = (reference: ResourceReference, path: Path) => new FoundReference(reference, path);

/** Connection types by URN, from the provider's checks of connections, and by id, from the service. */
export interface KnownConnectionTypes {
  readonly byUrn: Map<string, string>;
  readonly byId: Map<string, string>;
}

export function knownConnectionTypes(): KnownConnectionTypes {
  return { byUrn: new Map(), byId: new Map() };
}

/** What resolving references needs: the types known, and the service to ask for the others. */
export interface ReferenceLookup {
  readonly types: KnownConnectionTypes;
  context(): OperationContext;
}

/** A connection's checked type, for the references to it that follow in the same deployment. */
export function noteChecked(types: KnownConnectionTypes, kind: string, urn: string, inputs: Values): void {
  if (kind === "Connection" && typeof inputs.type === "string" && !isUnknown(inputs.type)) types.byUrn.set(urn, inputs.type);
}

const UNKNOWN: unknown = UNKNOWN_VALUE;

function knownId(reference: ResourceReference): string | undefined {
  const { id } = reference;
  return typeof id === "string" && id !== "" && !isUnknown(id) ? id : typeof id === "number" ? String(id) : undefined;
}

function typeOfUrn(urn: string): string {
  // urn:pulumi:<stack>::<project>::<parent type>$<type>::<name>
  const parts = urn.split("::");
  return parts.length >= 4 ? parts[parts.length - 2]!.split("$").pop()! : "";
}

function matches(pattern: string, path: Path): boolean {
  const segments = pattern.split(".");
  return segments.length === path.length && segments.every((segment, at) => (segment === "*" ? typeof path[at] === "number" : segment === path[at]));
}

export interface Resolved {
  values: Values;
  failures: Array<{ property: string; reason: string }>;
}

async function connectionType(lookup: ReferenceLookup, reference: ResourceReference, id: string | undefined): Promise<string | undefined> {
  const checked = lookup.types.byUrn.get(reference.urn);
  if (checked !== undefined) return checked;
  if (id === undefined) return undefined;
  const known = lookup.types.byId.get(id);
  if (known !== undefined) return known;
  const { type } = await getConnectionById(lookup.context().request, id);
  lookup.types.byId.set(id, type);
  return type;
}

const WHAT_IS_TAKEN: Record<ReferencedKind, string> = {
  Connection: "a Connection resource, or a connection's id and type",
  Package: "a Package resource, or a package's id",
  Cluster: "a Cluster resource, or a cluster's id",
};

/** What the reference stands for at an input taking `kind`, or why it cannot be taken there. */
async function valueFor(
  lookup: ReferenceLookup,
  found: FoundReference,
  kind: ReferencedKind,
  property: string,
): Promise<{ value: unknown } | { reason: string }> {
  const type = typeOfUrn(found.reference.urn);
  if (type !== typeToken(kind)) return { reason: `${property} must be ${WHAT_IS_TAKEN[kind]}, got a resource of type ${type}` };
  const id = knownId(found.reference);
  if (kind !== "Connection") return { value: id ?? UNKNOWN };
  try {
    const type = await connectionType(lookup, found.reference, id);
    return { value: type === undefined ? UNKNOWN : { id: id ?? UNKNOWN, type } };
  } catch (error) {
    if (error instanceof NotFoundError) return { reason: `${property} names connection ${id}, which the account does not have` };
    throw error;
  }
}

async function resolved(lookup: ReferenceLookup, value: unknown, kind: string, failures: Resolved["failures"]): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map((item) => resolved(lookup, item, kind, failures)));
  if (value instanceof FoundReference) {
    const taken = RESOURCE_INPUTS[kind]?.find((input) => matches(input.path, value.path));
    if (taken === undefined) return referenceId(value.reference, value.path);
    const property = value.path.join(".");
    const outcome = await valueFor(lookup, value, taken.kind, property);
    if ("value" in outcome) return outcome.value;
    // The engine prints a failure's value only for a top-level name: a nested one is in the reason.
    failures.push({ property: value.path.length === 1 ? property : "", reason: outcome.reason });
    return undefined;
  }
  if (value === null || typeof value !== "object") return value;
  const entries = await Promise.all(Object.entries(value).map(async ([key, item]) => [key, await resolved(lookup, item, kind, failures)] as const));
  return Object.fromEntries(entries);
}

/** The inputs with each reference replaced by what it stands for, and the references refused. */
export async function resolveReferences(lookup: ReferenceLookup, kind: string, values: Values): Promise<Resolved> {
  const failures: Resolved["failures"] = [];
  const resolvedValues = (await resolved(lookup, values, kind, failures)) as Values;
  return { values: resolvedValues, failures };
}
