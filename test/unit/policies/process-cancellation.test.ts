/** A provider process's cancellation is its own, and reaches only the contexts that can be cancelled. */
import { afterEach, describe, expect, it } from "vitest";
import { cancelledBecause } from "../../../provider/cancellation";
import { RequestCancelledError } from "../../../provider/client/errors";
import { configuredBy, operationContext, processResources, type ProcessResources } from "../../../provider/context";
import { STDOUT_REPORTER } from "../../../provider/progress";
import { failureOf, ok, startScriptedServer, type ScriptedServer } from "./scripted-server";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const settingsFor = (url: string): Record<string, string> => ({ "etl:apiUrl": url, "etl:accountId": "acme", "etl:apiKey": "test-key" });
const contextOf = (shared: ProcessResources, url: string, cancellable: boolean) => configuredBy((key) => settingsFor(url)[key], shared, cancellable)();
const GET = { method: "GET", path: "/things/1" } as const;

describe("the cancellation of a provider process", () => {
  it("is not shared with another process: cancelling one leaves the other's contexts and requests running", async () => {
    server = await startScriptedServer([ok({ id: 1 })]);
    const first = processResources();
    const second = processResources();
    const cancelled = contextOf(first, server.url, true);
    const running = contextOf(second, server.url, true);
    first.cancellation.cancel("the deployment was cancelled");

    expect(cancelled.signal.aborted).toBe(true);
    expect(cancelledBecause(cancelled.signal)).toBe("the deployment was cancelled");
    expect(cancelled.signal).toBe(first.cancellation.signal);
    expect(running.signal.aborted).toBe(false);
    expect(cancelledBecause(running.signal)).toBeUndefined();

    const refused = await failureOf(cancelled.request(GET));
    expect(refused).toBeInstanceOf(RequestCancelledError);
    expect(refused.message).toMatch(/given up: the deployment was cancelled$/);
    expect((await running.request(GET)).body).toEqual({ id: 1 });
    expect(server.received.map((r) => r.url)).toEqual(["/acme/api/things/1"]);
  });

  it("never aborts the signal of a context that cannot be cancelled (a program's functions)", async () => {
    server = await startScriptedServer([ok({ id: 1 })]);
    const shared = processResources();
    const functions = contextOf(shared, server.url, false);
    const deployment = contextOf(shared, server.url, true);
    shared.cancellation.cancel("the provider process received SIGTERM");

    expect(deployment.signal.aborted).toBe(true);
    expect(cancelledBecause(deployment.signal)).toBe("the provider process received SIGTERM");
    expect(functions.signal.aborted).toBe(false);
    expect((await functions.request(GET)).body).toEqual({ id: 1 });
  });

  it("reaches a context made without a process never: its signal stays, its words go to stdout", () => {
    const ctx = operationContext(contextOf(processResources(), "http://127.0.0.1:9", true).settings, async () => Promise.reject(new Error("no request")));
    expect(ctx.signal.aborted).toBe(false);
    expect(ctx.report).toBe(STDOUT_REPORTER);
  });
});
