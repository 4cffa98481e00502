/**
 * `Construct`: the plugin serves the `Pipeline` component to programs in every language. The
 * engine asks the plugin to make the component; the plugin registers it and its children with the
 * engine's resource monitor, as a program would, and answers with the component's URN and
 * outputs. The children are the plugin's own resource types, so each then comes back to this
 * plugin as an ordinary Create, Diff or Delete.
 *
 * A program's runtime is what registers resources, so this is the one call that loads
 * `@pulumi/pulumi`'s (program-runtime.ts): lazily, so a plugin never asked for a component never pays for it.
 * Its set-up follows what `@pulumi/pulumi/provider`'s own server does for a construct: the runtime's
 * options and configuration from the request, in a local store per call.
 */
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import type * as Pulumi from "@pulumi/pulumi";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { UNKNOWN_VALUE } from "../engine-values";
import { RESOURCES } from "../resources/registry";
import { PIPELINE_TYPE } from "../components/pipeline/args";
import type { ChildMaker, PipelineOutputs } from "../components/pipeline/children";
import { childUrn, type ChildFailures } from "./child-failures";
import { PROGRAM_RUNTIME_ASSET, releaseAssets } from "./release-assets";
import { ProviderError } from "./errors";

/** The parts of the program runtime a construct uses that its type declarations leave out (marked internal). */
interface ProgramRuntime {
  pulumi: typeof Pulumi;
  settings: {
    resetOptions(project: string, stack: string, parallel: number, engine: string, monitor: string, preview: boolean, organization: string): void;
    awaitFeatureSupport(): Promise<void>;
    waitForRPCs(): Promise<void>;
  };
  config: { setAllConfig(config: Record<string, string>, secretKeys: string[]): void };
  state: { withLocalStorage<T>(work: () => Promise<T>): Promise<T> };
  rpc: {
    serializeResourceProperties(label: string, props: Record<string, unknown>): Promise<[Record<string, unknown>, Map<string, Set<Pulumi.Resource>>]>;
  };
  server: { deserializeInputs(inputs: Struct, dependencies: unknown): Promise<Record<string, unknown>> };
  pipeline: typeof import("../components/pipeline/children");
}

/** An output's value when it is known, as the runtime's own code awaits it. */
function resolvedValue<T>(output: Pulumi.Output<T>): Promise<T> {
  return (output as unknown as { promise(): Promise<T> }).promise();
}

/** The release's single executable carries the runtime as an asset; from a checkout, it is a module beside this one. */
function loadProgramRuntime(): ProgramRuntime {
  const sea = releaseAssets();
  if (sea) {
    const Module = require("node:module") as { new (id: string): { exports: unknown; _compile(code: string, file: string): void } };
    const asset = new Module(PROGRAM_RUNTIME_ASSET);
    asset._compile(sea.getAsset(PROGRAM_RUNTIME_ASSET, "utf8"), PROGRAM_RUNTIME_ASSET);
    return asset.exports as ProgramRuntime;
  }
  return require("./program-runtime") as ProgramRuntime;
}

/** What a plugin's constructs share: its children's failures, and the runtime, loaded by the first Construct and kept. */
export interface Constructs {
  readonly children: ChildFailures;
  programRuntime(): ProgramRuntime;
}

/** A plugin's: made with its service (server.ts), so the runtime's modules are compiled once per plugin. */
export function constructs(children: ChildFailures): Constructs {
  let loaded: ProgramRuntime | undefined;
  return {
    children,
    programRuntime: () => (loaded ??= loadProgramRuntime()),
  };
}

async function configureRuntime(runtime: ProgramRuntime, req: providerProto.ConstructRequest, engine: string): Promise<void> {
  const { settings, config } = runtime;
  settings.resetOptions(req.getProject(), req.getStack(), req.getParallel(), engine, req.getMonitorendpoint(), req.getDryrun(), req.getOrganization());
  await settings.awaitFeatureSupport();
  config.setAllConfig(Object.fromEntries(req.getConfigMap().entries()), req.getConfigsecretkeysList());
}

function optionsOf(pulumi: typeof Pulumi, req: providerProto.ConstructRequest): Pulumi.ComponentResourceOptions {
  const providers = Object.fromEntries([...req.getProvidersMap().entries()].map(([pkg, ref]) => [pkg, new pulumi.DependencyProviderResource(ref)]));
  return {
    parent: req.getParent() ? new pulumi.DependencyResource(req.getParent()) : undefined,
    providers,
    dependsOn: req.getDependenciesList().map((urn) => new pulumi.DependencyResource(urn)),
    protect: req.getProtect(),
    aliases: req.getAliasesList().flatMap((alias) => (alias.hasUrn() ? [alias.getUrn()] : [])),
  };
}

/**
 * A child as the plugin's own resource type, with every output the kind declares, so the
 * component can pass them on; each child's type and name go to `made`.
 */
function pluginChild(pulumi: typeof Pulumi, made: Array<{ type: string; name: string }>): ChildMaker {
  return (kind, name, args, opts) => {
    const outputs = Object.fromEntries(RESOURCES[kind].tableOperations.outputNames.filter((output) => !(output in args)).map((output) => [output, undefined]));
    const type = `etl:index:${kind}`;
    made.push({ type, name });
    return new (class extends pulumi.CustomResource {})(type, name, { ...args, ...outputs }, opts);
  };
}

async function stateOf(runtime: ProgramRuntime, type: string, name: string, outputs: PipelineOutputs, response: providerProto.ConstructResponse) {
  const [state, dependencies] = await runtime.rpc.serializeResourceProperties(`construct(${type}, ${name})`, outputs as unknown as Record<string, unknown>);
  const map = response.getStatedependenciesMap();
  for (const [key, resources] of dependencies) {
    const urns = new providerProto.ConstructResponse.PropertyDependencies();
    urns.setUrnsList(await Promise.all([...resources].map((resource) => resolvedValue(resource.urn))));
    map.set(key, urns);
  }
  response.setState(Struct.fromJavaScript(state as Record<string, never>));
}

/** Makes a `Pipeline` for the engine, as a program in any language declared it. */
export async function construct(plugin: Constructs, req: providerProto.ConstructRequest, engine: string | undefined): Promise<providerProto.ConstructResponse> {
  const type = req.getType();
  if (type !== PIPELINE_TYPE) throw new ProviderError(`the etl provider has no component "${type}"; is the installed plugin older than the program?`);
  if (engine === undefined) throw new ProviderError("the etl provider was started without the engine's address, which a component needs");
  const runtime = plugin.programRuntime();
  return runtime.state.withLocalStorage(async () => {
    await configureRuntime(runtime, req, engine);
    const name = req.getName();
    const inputs = (await runtime.server.deserializeInputs(req.getInputs()!, req.getInputdependenciesMap())) as Record<string, unknown>;
    const args = inputs as unknown as Parameters<typeof runtime.pipeline.declarePipeline>[2];
    try {
      runtime.pipeline.checkPlainInputs(name, args);
    } catch (error) {
      throw error instanceof runtime.pipeline.PipelineInputError ? new ProviderError(error.message) : error;
    }
    const component = new (class extends runtime.pulumi.ComponentResource {
      publish(outputs: PipelineOutputs): void {
        this.registerOutputs(outputs);
      }
    })(type, name, {}, optionsOf(runtime.pulumi, req));
    const children: Array<{ type: string; name: string }> = [];
    const outputs = runtime.pipeline.declarePipeline(component, name, args, pluginChild(runtime.pulumi, children));
    component.publish(outputs);
    const response = new providerProto.ConstructResponse();
    const urn = await resolvedValue(component.urn);
    response.setUrn(urn);
    const finished = await untilAChildFails(
      plugin.children,
      children.map((child) => childUrn(urn, child.type, child.name)),
      async () => {
        await stateOf(runtime, type, name, outputs, response);
        await runtime.settings.waitForRPCs();
      },
    );
    // A failed child's error is the one to report: the component answers at once, its outputs not known.
    if (!finished && !response.hasState())
      response.setState(Struct.fromJavaScript(Object.fromEntries(Object.keys(outputs).map((key) => [key, UNKNOWN_VALUE]))));
    return response;
  });
}

/** Runs `work`; false when one of the children fails first, whose outputs would never come (child-failures.ts). */
async function untilAChildFails(failures: ChildFailures, children: string[], work: () => Promise<void>): Promise<boolean> {
  const watch = failures.watchChildren(children);
  const working = work().then(() => true);
  // Once a child has failed, what the work then meets is that failure again, already reported.
  working.catch(() => undefined);
  try {
    return await Promise.race([working, watch.failure.then(() => false)]);
  } finally {
    watch.stop();
  }
}
