/**
 * How the resources plug into Pulumi's dynamic-provider plugin (`pulumi-resource-pulumi-nodejs`).
 *
 * A resource of type `pulumi-nodejs:dynamic/...` carries its provider as the property
 * `__provider`: module text whose `handler()` returns the provider object. `dynamic.Resource`
 * fills it by serializing a closure, which costs a TypeScript parse per program and at best about
 * 300 bytes stored twice per resource (inputs and outputs). Ours is one fixed line that loads the
 * installed package, so state stays small, holds no code and no credentials, and a fixed or
 * upgraded package takes effect at once, even for resources whose state is years old.
 *
 * The resource classes extend `CustomResource` directly, not `dynamic.Resource`: the SDK records
 * the first stack frame below the resource class as the resource's source position, and with a
 * subclass of `dynamic.Resource` that frame would be the class itself instead of the user's line.
 *
 * The text is evaluated with the program's directory as its base, so `pulumi-etl` must be
 * installed where the program is (a normal dependency). `providerFor` in runtime.ts is the
 * entry point every stored provider calls: keep it, with these kind names, for good.
 */
import type * as pulumi from "@pulumi/pulumi";

export function resourceType(kind: string): string {
  return `pulumi-nodejs:dynamic/etl:${kind}`;
}

export function serializedProvider(kind: string): string {
  return `exports.handler = () => require("pulumi-etl/runtime").providerFor(${JSON.stringify(kind)});\n`;
}

/** A resource's properties with its provider, as the dynamic-provider plugin expects them. */
export function withProvider(kind: string, props: pulumi.Inputs): pulumi.Inputs {
  return { ...props, __provider: serializedProvider(kind) };
}
