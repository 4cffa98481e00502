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

export function idOf(value: unknown): unknown {
  return isCustomResource(value) ? value.id : value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype;
}

/** The arguments with the named fields' resources replaced by their ids. */
export function withIds(args: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  return { ...args, ...Object.fromEntries(names.filter((name) => name in args).map((name) => [name, idOf(args[name])])) };
}

/** The same inside a list of plain objects (`task.packages`); a list still to be computed is left as it is. */
export function withIdsInList(list: unknown, names: readonly string[]): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((item) => (isPlainObject(item) ? withIds(item, names) : item));
}

/** A kind whose resource an input takes. A `Connection` stands for `{ id, type }`, the others for their id. */
export type ReferencedKind = "Connection" | "Package" | "Cluster";

/**
 * Where each kind's inputs take another resource, as dot paths (`*` for any item of a list). The
 * dynamic resources put the values in by their `prepare`; the plugin, which receives a reference
 * (the resource's URN and id), by this list, and its schema types these inputs with the resource.
 */
export const RESOURCE_INPUTS: Readonly<Record<string, ReadonlyArray<{ path: string; kind: ReferencedKind }>>> = {
  ConnectionGroup: [{ path: "connections.*", kind: "Connection" }],
  Delivery: [
    { path: "source.connection", kind: "Connection" },
    { path: "destination.connection", kind: "Connection" },
  ],
  JobRun: [
    { path: "clusterId", kind: "Cluster" },
    { path: "packageId", kind: "Package" },
  ],
  Schedule: [{ path: "task.packages.*.packageId", kind: "Package" }],
};
