/**
 * What the rules know of pulumi-etl's resources, whichever surface a program uses: the plugin's
 * `etl:index:<Kind>` and the dynamic resources' `pulumi-nodejs:dynamic/etl:<Kind>`.
 */
import type { ResourceKind } from "pulumi-etl/plugin";

/** The kinds the rules look at: the provider's resources and the `Pipeline` component. */
export type RuleKind = ResourceKind | "Pipeline";

const ETL_TYPE = /^(?:pulumi-nodejs:dynamic\/etl:|etl:index:)(\w+)$/;

export function isKind(type: string, kind: RuleKind): boolean {
  return ETL_TYPE.exec(type)?.[1] === kind;
}

/** How a message names a resource: its kind and the name the program gave it. */
export function named(kind: RuleKind, name: string): string {
  return `${kind} "${name}"`;
}

/** The name of the resource a URN names (`urn:pulumi:<stack>::<project>::<type chain>::<name>`), and its type. */
function partsOf(urn: string): { type: string; name: string } {
  const [, , typeChain = "", ...name] = urn.split("::");
  return { type: typeChain.split("$").pop() ?? "", name: name.join("::") };
}

/**
 * What a finding on a Pipeline's child adds: the Pipeline's own input it comes from, when the
 * resource is the child the Pipeline makes of that input (`<pipeline>-<role>`, its parent). The
 * finding is reported on the child alone, which the engine checks whatever the component registers.
 */
export function fromPipeline(resource: { name: string; opts?: { parent?: string } }, role: "alert" | "schedule", input: string): string {
  if (resource.opts?.parent === undefined) return "";
  const parent = partsOf(resource.opts.parent);
  if (!isKind(parent.type, "Pipeline") || resource.name !== `${parent.name}-${role}`) return "";
  return ` ${named("Pipeline", parent.name)} gives it as ${input}.`;
}

/** The stack of a URN (`urn:pulumi:<stack>::<project>::…`). */
export function stackOf(urn: string): string {
  return urn.split("::")[0]!.replace(/^urn:pulumi:/, "");
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
