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
import type { ResourceKind } from "./resources/registry";

export type { ResourceKind };

export function resourceType(kind: ResourceKind): string {
  return `pulumi-nodejs:dynamic/etl:${kind}`;
}

export function serializedProvider(kind: ResourceKind): string {
  return `exports.handler = () => require("pulumi-etl/runtime").providerFor(${JSON.stringify(kind)});\n`;
}

/** A resource's properties with its provider, as the dynamic-provider plugin expects them. */
export function withProvider(kind: ResourceKind, props: pulumi.Inputs): pulumi.Inputs {
  return { ...props, __provider: serializedProvider(kind) };
}

/**
 * For a resource class's constructor, around its `super(...)` call, which registers the
 * resource: no stack traces until the returned function puts the limit back.
 *
 *     const restore = withoutStackTraces();
 *     try {
 *       super(resourceType("JobRun"), name, withProvider("JobRun", props), opts);
 *     } finally {
 *       restore();
 *     }
 *
 * The SDK gives every property of a resource (each output the class declares) an Output of
 * four promises and records a stack trace with each promise, which only its report of promises
 * left pending at exit ever shows. The Node.js host formats every trace through source maps, so
 * at 20 properties these traces are most of what a resource costs the program: about 6.5 of
 * 10.5 ms of CPU per job run, more than a whole no-op resource costs (4 ms), and what makes
 * `preview` and `up` grow with N faster than the floor's. The resource's source position in the
 * state is not affected (the SDK records it under a limit of its own); an error thrown while
 * registering (the SDK's checks of the arguments, a `transformations` callback) keeps its
 * message but carries no frames.
 */
export function withoutStackTraces(): () => void {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return () => {
    Error.stackTraceLimit = limit;
  };
}
