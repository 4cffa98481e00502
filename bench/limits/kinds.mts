/** What the benchmark measures: a kind of the provider on either surface, or a floor of no-op resources on either. */
import { createRequire } from "node:module";
import type { ResourceKind } from "pulumi-etl/plugin";

/**
 * The floor, a kind of the provider's one list, or a kind's own floor (`Floor.<Kind>`): no-op
 * resources that take the kind's inputs and return the outputs the kind returned, so the engine's
 * cost of those properties is the floor's too and the ratio to it is the provider's alone.
 */
export type BaseKind = "Floor" | ResourceKind | `Floor.${ResourceKind}`;
/** A kind on the dynamic resources, or `<Kind>@plugin` on the plugin; `Floor@plugin` is the no-op plugin's. */
export type Kind = BaseKind | `${BaseKind}@plugin`;

/** The surfaces' floors, and every kind's own. */
export function isFloor(kind: Kind): boolean {
  return kind.startsWith("Floor");
}

/** The floor of a surface, with no properties of a kind: `Floor`, `Floor@plugin`. */
export function isSurfaceFloor(kind: Kind): boolean {
  return kind === "Floor" || kind === "Floor@plugin";
}

export function onPlugin(kind: Kind): boolean {
  return kind.endsWith("@plugin");
}

/** `PublicKey@plugin` → `PublicKey`. */
export function baseOf(kind: Kind): BaseKind {
  return kind.replace(/@plugin$/, "") as BaseKind;
}

/** The kind whose properties a floor of its own carries (`Floor.PublicKey@plugin` → `PublicKey`), or undefined. */
export function shapeOf(kind: Kind): ResourceKind | undefined {
  const base = baseOf(kind);
  return base.startsWith("Floor.") ? (base.slice("Floor.".length) as ResourceKind) : undefined;
}

/** A kind's own floor on its surface: `PublicKey@plugin` → `Floor.PublicKey@plugin`. */
export function ownFloorOf(kind: Kind): Kind {
  return `Floor.${baseOf(kind)}${onPlugin(kind) ? "@plugin" : ""}` as Kind;
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

/** The runs of one round: the surfaces' floors, then each kind followed by its own floor, which returns what the kind returned. */
export function roundOf(kinds: Kind[]): Kind[] {
  const surfaceFloors: Kind[] = kinds.some(onPlugin) ? ["Floor@plugin", "Floor"] : ["Floor"];
  return [...surfaceFloors, ...kinds.flatMap((kind) => [kind, ownFloorOf(kind)])];
}
