/**
 * An inline program reaches its engine even when an engine that ended earlier in the same test
 * process listened on the same loopback port (test/support/inline-runs.ts): the program's clients,
 * made with @pulumi/pulumi's client options, do not meet the dead engine's subchannel.
 */
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import * as engineRpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engineProto from "@pulumi/pulumi/proto/engine_pb";
import { afterEach, describe, expect, it } from "vitest";
import { separateRunConnections } from "../support/inline-runs";

const settings = require("@pulumi/pulumi/runtime/settings") as { grpcClientOptions: grpc.ClientOptions };

/** An engine's log service on `port` (0: any), as an engine serves its programs. */
async function engineOn(port: number): Promise<{ server: grpc.Server; port: number }> {
  const server = new grpc.Server();
  const unused = () => undefined;
  server.addService(engineRpc.EngineService, {
    log: (_call: unknown, done: (error: null, reply: Empty) => void) => done(null, new Empty()),
    getRootResource: unused,
    setRootResource: unused,
    startDebugging: unused,
    requirePackage: unused,
  });
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (error, at) => (error ? reject(error) : resolve(at))),
  );
  return { server, port: bound };
}

/** One log call of a client made as a program makes it: "ok", or the call's error. */
function logOnce(port: number): Promise<string> {
  const client = new engineRpc.EngineClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), { ...settings.grpcClientOptions, interceptors: [] });
  return new Promise((resolve) => client.log(new engineProto.LogRequest(), (error) => resolve(error ? error.message : "ok")));
}

const servers: grpc.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.forceShutdown();
});

describe("an inline program's connection to its engine", () => {
  it("reaches a new engine on the port of one that ended, whose last call failed", async () => {
    separateRunConnections();
    const ended = await engineOn(0);
    expect(await logOnce(ended.port)).toBe("ok");
    ended.server.forceShutdown();
    expect(await logOnce(ended.port)).toMatch(/^14 UNAVAILABLE/);

    const next = await engineOn(ended.port);
    servers.push(next.server);
    expect(await logOnce(next.port)).toBe("ok");
  });
});
