/**
 * What a component's Construct needs of `@pulumi/pulumi`'s program runtime, in one module: the
 * plugin's release carries it as a bundle of its own, loaded by the first Construct, so that the
 * plugin's other calls never load it (it is most of the runtime's size).
 */
export * as pulumi from "@pulumi/pulumi";
export * as settings from "@pulumi/pulumi/runtime/settings";
export * as config from "@pulumi/pulumi/runtime/config";
export * as state from "@pulumi/pulumi/runtime/state";
export * as rpc from "@pulumi/pulumi/runtime/rpc";
export * as server from "@pulumi/pulumi/provider/server";
export * as pipeline from "../components/pipeline/children";
