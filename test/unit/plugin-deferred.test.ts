/**
 * The plugin listens before its calls' code has loaded (server.ts): a call that comes first is
 * handed to that code once it is there, and a load that fails answers each call with the reason
 * rather than leaving it waiting.
 */
import * as grpc from "@grpc/grpc-js";
import * as providerRpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { describe, expect, it } from "vitest";
import { deferredTo } from "../../provider/plugin/server";

type Answer = { error: Partial<grpc.StatusObject> | null; value: unknown };

function call(handlers: grpc.UntypedServiceImplementation, method: string): Promise<Answer> {
  return new Promise((resolve) => {
    const handler = handlers[method] as (call: unknown, callback: (error: Partial<grpc.StatusObject> | null, value?: unknown) => void) => void;
    handler({ request: method }, (error, value) => resolve({ error, value }));
  });
}

describe("the plugin's calls before their code has loaded", () => {
  it("are each handed to the loaded code, for every method of the service", async () => {
    const answer = (c: { request: string }, done: (e: null, v: string) => void) => done(null, `answered ${c.request}`);
    const handlers = deferredTo(async () => ({ getPluginInfo: answer, create: answer }) as never);
    expect(Object.keys(handlers)).toEqual(Object.keys(providerRpc.ResourceProviderService));
    expect(await call(handlers, "getPluginInfo")).toEqual({ error: null, value: "answered getPluginInfo" });
    expect(await call(handlers, "create")).toEqual({ error: null, value: "answered create" });
  });

  it("fail with the reason when the code could not load", async () => {
    const handlers = deferredTo(() => Promise.reject(new Error("Cannot find module './service'")));
    const { error } = await call(handlers, "configure");
    expect(error).toEqual({ code: grpc.status.UNAVAILABLE, details: "the etl provider could not start: Cannot find module './service'" });
  });
});
