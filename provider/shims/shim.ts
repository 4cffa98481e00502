/**
 * The provider object that Pulumi serializes into state (`__provider`) for every dynamic resource.
 *
 * It holds no logic and captures nothing but the resource kind: each method loads the installed
 * package at call time. State stays small, and a fixed or upgraded package takes effect on the
 * next operation even for resources whose serialized provider is years old.
 * The engine evaluates it with the program's directory as its base, so `pulumi-etl` must be
 * installed where the program is (a normal dependency of the program).
 */
import type * as pulumi from "@pulumi/pulumi";

export type ResourceKind = "PublicKey" | "ConnectionGroup" | "Cluster" | "JobRun";

export function shimFor(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  // Plain functions with a literal `require`: anything else would be serialized along with them.
  return {
    configure: (req) => require("pulumi-etl/runtime").providerFor(kind).configure(req),
    check: (olds, news) => require("pulumi-etl/runtime").providerFor(kind).check(olds, news),
    diff: (id, olds, news) => require("pulumi-etl/runtime").providerFor(kind).diff(id, olds, news),
    create: (inputs) => require("pulumi-etl/runtime").providerFor(kind).create(inputs),
    read: (id, props) => require("pulumi-etl/runtime").providerFor(kind).read(id, props),
    update: (id, olds, news) => require("pulumi-etl/runtime").providerFor(kind).update(id, olds, news),
    delete: (id, props) => require("pulumi-etl/runtime").providerFor(kind).delete(id, props),
  };
}
