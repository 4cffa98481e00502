/** What the benchmark measures: a kind of the provider on either surface, or a floor of no-op resources on either. */
import { createRequire } from "node:module";
import type { ResourceKind } from "pulumi-etl/plugin";

/** The floor, or a kind of the provider's one list. */
export type BaseKind = "Floor" | ResourceKind;
/** A kind on the dynamic resources, or `<Kind>@plugin` on the plugin; `Floor@plugin` is the no-op plugin's. */
export type Kind = BaseKind | `${BaseKind}@plugin`;

export function isFloor(kind: Kind): boolean {
  return kind === "Floor" || kind === "Floor@plugin";
}

export function onPlugin(kind: Kind): boolean {
  return kind.endsWith("@plugin");
}

const { RESOURCE_KINDS, SINGLETON_KINDS } = createRequire(import.meta.url)("pulumi-etl/plugin") as {
  RESOURCE_KINDS: ResourceKind[];
  SINGLETON_KINDS: ResourceKind[];
};

/**
 * Kinds whose objects made from the example are one object of the service: the benchmark makes N
 * objects from a kind's example, so it leaves these out, as it does a singleton.
 */
const ONE_FROM_EXAMPLE: Partial<Record<ResourceKind, string>> = {
  ClusterWatcher: "every watch of cluster 201 by one user is the same watch",
};

/** The kinds the benchmark makes N objects of from their examples: all but the singletons and those whose example makes one object. */
const MANY_FROM_EXAMPLE_KINDS: ResourceKind[] = RESOURCE_KINDS.filter((kind) => !SINGLETON_KINDS.includes(kind) && ONE_FROM_EXAMPLE[kind] === undefined);

/**
 * Every kind of the provider's one list, through the plugin (`<Kind>@plugin`) and on the dynamic
 * resources, but the singletons (a program declares one UserSettings at most, never N) and the
 * kinds whose example makes one object.
 */
export const MEASURED_KINDS: Kind[] = MANY_FROM_EXAMPLE_KINDS.flatMap((kind): Kind[] => [`${kind}@plugin`, kind]);

/** The kind a setting names, or an error naming the setting and the kinds it takes. */
export function measuredKind(setting: string, name: string): Kind {
  const kind = MEASURED_KINDS.find((candidate) => candidate === name);
  if (!kind) throw new Error(`${setting}: "${name}" is not one of ${MEASURED_KINDS.join(", ")}`);
  return kind;
}
