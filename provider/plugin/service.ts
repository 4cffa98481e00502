/**
 * The plugin's calls: Pulumi's ResourceProvider on `@pulumi/pulumi`'s generated stubs, served
 * from the same resource code as the dynamic resources (server.ts listens and loads this module).
 */
import type * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import type * as providerRpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import * as pluginProto from "@pulumi/pulumi/proto/plugin_pb";
import { processResources, type ProcessResources } from "../context";
import { isEngineAddress } from "../engine-log";
import { operationOf } from "../progress";
import { childFailures, type ChildFailures } from "./child-failures";
import { checkConfig, configure, diffConfig } from "./config";
import { construct, constructs } from "./construct";
import { failureOf, unimplemented } from "./errors";
import * as resources from "./resources";
import { packageSchema } from "./schema";
import { pluginSession } from "./session";
import { packageVersion } from "./version";

type Unary<Req, Res> = grpc.handleUnaryCall<Req, Res>;

interface WithUrn {
  getUrn?: () => string;
}

/** A check's answer that refuses the inputs. */
function refuses(response: unknown): boolean {
  return response instanceof providerProto.CheckResponse && response.getFailuresList().length > 0;
}

/**
 * One call's handler: its work knows the resource's URN, counts as in flight in the process, and
 * fails readably; a component waiting on the resource hears of its failure first (child-failures.ts).
 */
function servedIn<Req, Res>(shared: ProcessResources, children: ChildFailures, method: string, work: (request: Req) => Promise<Res> | Res): Unary<Req, Res> {
  const operation = operationOf(method);
  return (call, callback) => {
    const urn = (call.request as WithUrn).getUrn?.();
    shared.progress
      .withinRequest(urn, operation, () => shared.cancellation.tracked(async () => work(call.request)))
      .then(
        async (response) => {
          if (refuses(response)) await children.childFailed(urn);
          callback(null, response);
        },
        async (error: unknown) => {
          await children.childFailed(urn);
          callback(failureOf(error));
        },
      );
  };
}

function notServed<Req, Res>(what: string): Unary<Req, Res> {
  return (_call, callback) => callback(unimplemented(what));
}

/** The schema's answer, made at the first GetSchema of this service and kept for the next. */
function schemaAnswer(): () => providerProto.GetSchemaResponse {
  let schemaText: string | undefined;
  return () => {
    schemaText ??= JSON.stringify(packageSchema());
    const response = new providerProto.GetSchemaResponse();
    response.setSchema(schemaText);
    return response;
  };
}

function pluginInfo(): pluginProto.PluginInfo {
  const info = new pluginProto.PluginInfo();
  info.setVersion(packageVersion());
  return info;
}

const empty = () => new Empty();

/**
 * The calls the engine makes, served with what the process shares (its session, cancellation and
 * log) and what this service keeps of its own (its children's failures, the program runtime, the
 * schema); `engine` is the engine's address, which a component's construction talks to.
 */
export function providerService(shared: ProcessResources, engine?: string): providerRpc.IResourceProviderServer {
  const session = pluginSession(shared);
  const children = childFailures();
  const components = constructs(children);
  const served = <Req, Res>(method: string, work: (request: Req) => Promise<Res> | Res): Unary<Req, Res> => servedIn(shared, children, method, work);
  return {
    handshake: notServed("Handshake"),
    parameterize: notServed("Parameterize"),
    getSchema: served("GetSchema", schemaAnswer()),
    checkConfig: served("CheckConfig", (req: providerProto.CheckRequest) => checkConfig(session, req)),
    diffConfig: served("DiffConfig", diffConfig),
    configure: served("Configure", (req: providerProto.ConfigureRequest) => configure(session, req)),
    // The functions' code loads at a program's first call of one: most operations call none, and
    // it was a tenth of the plugin's start.
    invoke: served("Invoke", async (req: providerProto.InvokeRequest) => (await import("./functions")).invoke(session, req)),
    call: notServed("Call"),
    check: served("Check", (req: providerProto.CheckRequest) => resources.check(session, req)),
    diff: served("Diff", (req: providerProto.DiffRequest) => resources.diff(session, req)),
    create: served("Create", (req: providerProto.CreateRequest) => resources.create(session, req)),
    read: served("Read", (req: providerProto.ReadRequest) => resources.read(session, req)),
    list: (call) => call.destroy(new Error("List is not implemented by the etl provider")),
    update: served("Update", (req: providerProto.UpdateRequest) => resources.update(session, req)),
    delete: served("Delete", async (request: providerProto.DeleteRequest) => {
      await resources.remove(session, request);
      return empty();
    }),
    construct: served("Construct", (req: providerProto.ConstructRequest) => construct(components, req, engine)),
    cancel: served("Cancel", () => {
      shared.cancellation.cancel("the deployment was cancelled");
      return empty();
    }),
    getPluginInfo: served("GetPluginInfo", pluginInfo),
    attach: served("Attach", empty),
    getMapping: served("GetMapping", () => new providerProto.GetMappingResponse()),
    getMappings: served("GetMappings", () => new providerProto.GetMappingsResponse()),
  };
}

/** The calls of this process, which the engine at `engine` started: one set of resources, whose cancellation the Cancel call and the signals set. */
export function processService(engine: string | undefined): providerRpc.IResourceProviderServer {
  const shared = processResources();
  shared.cancellation.installHooks({ engine, progress: shared.progress, hostCalls: false });
  return providerService(shared, isEngineAddress(engine) ? engine : undefined);
}
