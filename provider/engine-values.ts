/**
 * What the resource code needs to recognise among the values a Pulumi program hands it, without
 * loading `@pulumi/pulumi`'s program runtime: the plugin never runs a program, and its
 * self-contained executable carries only what it runs. A unit test holds each to the SDK's own.
 */

/** The engine's placeholder for a value not known until `up` (`pulumi.runtime.unknownValue`). */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** The SDK marks each of its objects with a property of this kind set to `true`. */
function carriesMark(value: unknown, mark: string): boolean {
  return value !== null && typeof value === "object" && (value as Record<string, unknown>)[mark] === true;
}

/** `pulumi.Output.isInstance`: a value the program has not resolved yet. */
export function isOutput(value: unknown): boolean {
  return carriesMark(value, "__pulumiOutput");
}

/** `pulumi.CustomResource.isInstance`: a resource the program declared, whose `id` is an Output. */
export function isCustomResource(value: unknown): value is { id: unknown } {
  return carriesMark(value, "__pulumiCustomResource");
}
