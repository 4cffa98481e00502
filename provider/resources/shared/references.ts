/**
 * A resource given where its id is taken (`packageId: pkg`): the program names the object itself,
 * and the engine sees the dependency, as it would for `pkg.id`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isCustomResource } from "../../engine-values";

/** An object of the service by its id (a number, or a string of digits), or the resource that manages it. */
export type ObjectReference = pulumi.Input<number | string> | pulumi.CustomResource;

/**
 * A resource of the stack that stands for a connection by its id and its `type` output: a
 * `Connection`, named by shape so that no kind imports another.
 */
export type ConnectionResource = pulumi.CustomResource & { readonly type: pulumi.Output<string> };

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype;
}

/** What a resource given for an input of `kind` stands for: a connection for its id and type, the others for their id. */
function valueOfResource(resource: { id: unknown }, kind: ReferencedKind): unknown {
  return kind === "Connection" ? { id: resource.id, type: (resource as unknown as { type: unknown }).type } : resource.id;
}

/** The value with a resource at `path` replaced by what it stands for; anything still to be computed is left as it is. */
function withValueAt(value: unknown, path: readonly string[], kind: ReferencedKind): unknown {
  if (path.length === 0) return isCustomResource(value) ? valueOfResource(value, kind) : value;
  const [segment, ...rest] = path as [string, ...string[]];
  if (segment === "*") return Array.isArray(value) ? value.map((item) => withValueAt(item, rest, kind)) : value;
  if (!isPlainObject(value) || !(segment in value)) return value;
  return { ...value, [segment]: withValueAt(value[segment], rest, kind) };
}

/**
 * The arguments with a resource given where an input takes one replaced by what it stands for,
 * as the provider takes it: a resource itself would reach the provider as a reference.
 */
export function withResourceValues(args: Record<string, unknown>, inputs: readonly ResourceInput[]): Record<string, unknown> {
  return inputs.reduce((current, input) => withValueAt(current, input.path.split("."), input.kind) as Record<string, unknown>, args);
}

/** A kind whose resource an input takes. A `Connection` stands for `{ id, type }`, the others for their id. */
export type ReferencedKind = "Connection" | "Package" | "Cluster";

/** An input that takes another resource, as a dot path (`*` for any item of a list), and the kind it takes. */
export interface ResourceInput {
  path: string;
  kind: ReferencedKind;
}
