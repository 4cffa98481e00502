/** What the benchmark measures: a kind of the provider on either surface, or a floor of no-op resources on either. */
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
