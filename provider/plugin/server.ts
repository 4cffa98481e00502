/**
 * `pulumi-resource-etl`: the engine starts it with its own address as the first argument and
 * reads the port it listens on from stdout. The port is printed as soon as gRPC listens; the
 * calls' code (service.ts, with every kind and its schemas) loads right after, while the engine
 * connects, and a call that comes first waits for it.
 */
import * as grpc from "@grpc/grpc-js";
import * as providerRpc from "@pulumi/pulumi/proto/provider_grpc_pb";

type Served = providerRpc.IResourceProviderServer;
/** A unary call's handler, or (without a callback) a streaming one's, which a failure ends by destroying the stream. */
type Handler = (call: grpc.ServerUnaryCall<unknown, unknown> & { destroy?: (error: Error) => void }, callback?: grpc.sendUnaryData<unknown>) => void;

/** A call's failure when the calls' code could not load (which also ends the process, through main). */
function notLoaded(error: unknown): Partial<grpc.StatusObject> {
  return { code: grpc.status.UNAVAILABLE, details: `the etl provider could not start: ${error instanceof Error ? error.message : String(error)}` };
}

/** Each method of the service, handed to the loaded calls once they are there. */
export function deferredTo(load: () => Promise<Served>): grpc.UntypedServiceImplementation {
  const methods = Object.keys(providerRpc.ResourceProviderService) as Array<keyof Served>;
  const deferred =
    (method: keyof Served): Handler =>
    (call, callback) => {
      load().then(
        (served) => (served[method] as Handler)(call, callback),
        (error: unknown) => (callback ? callback(notLoaded(error)) : call.destroy?.(new Error(notLoaded(error).details))),
      );
    };
  return Object.fromEntries(methods.map((method) => [method, deferred(method)]));
}

export async function main(args: readonly string[]): Promise<void> {
  const engine = args.find((arg) => !arg.startsWith("-"));
  let loading: Promise<Served> | undefined;
  const served = () => (loading ??= import("./service").then((service) => service.processService(engine)));
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(providerRpc.ResourceProviderService, deferredTo(served));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  // The engine reads the port from the first line of stdout.
  process.stdout.write(`${port}\n`);
  await served();
}
