/** Each fault kind the emulator injects: what the client sees, and what is applied, saved and logged. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FaultInjector, MAX_LATENCY_MS, MIN_LATENCY_MS } from "../../../emulator/faults";
import { call, ed25519Key, readJson } from "../helpers";
import { useFaultsService } from "./helpers";

const service = useFaultsService();
const { configure, control, publicKeyIds, raw, requestLog } = service;

describe("fault kinds", () => {
  it.each([
    ["500", 500, "Internal server error."],
    ["503", 503, "Service unavailable: try again later."],
  ])("%s answers that status with an Error body, applies nothing and costs nothing", async (kind, status, message) => {
    const before = await publicKeyIds();
    const remaining = (await call(service.emulator, "/user/keys")).headers.get("x-ratelimit-remaining");
    await configure({ rate: 1, kinds: [kind], seed: 1 });
    const response = await call(service.emulator, "/user/keys", { method: "POST", body: { public_key: ed25519Key("faulted").line } });
    expect(response.status).toBe(status);
    expect(await readJson(response)).toEqual({ message });
    expect(response.headers.get("x-ratelimit-remaining")).toBe(remaining);
    expect(response.headers.get("x-ratelimit-limit")).toBe("100000");
    expect(await publicKeyIds()).toEqual(before);
  });

  it("429 answers Too Many Requests with Retry-After 1 and rate-limit headers, uncharged", async () => {
    const remaining = (await call(service.emulator, "/user/keys")).headers.get("x-ratelimit-remaining");
    await configure({ rate: 1, kinds: ["429"], seed: 1 });
    const response = await call(service.emulator, "/user/keys/1", { method: "DELETE" });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(response.headers.get("x-ratelimit-remaining")).toBe(remaining);
    expect((await readJson(response)).message).toMatch(/^Rate Limit Exceeded/);
  });

  it("latency delays the response, which is otherwise normal", async () => {
    await configure({ rate: 1, kinds: ["latency"], seed: 7 });
    // The same seed draws the same delay: the answer cannot come before it.
    const draw = new FaultInjector();
    draw.configure({ rate: 1, kinds: ["latency"], seed: 7, holdMs: 0 });
    const { delayMs } = draw.decide("POST")!;
    expect(delayMs).toBeGreaterThanOrEqual(MIN_LATENCY_MS);
    expect(delayMs).toBeLessThanOrEqual(MAX_LATENCY_MS);
    const started = performance.now();
    const response = await call(service.emulator, "/user/keys", { method: "POST", body: { public_key: ed25519Key("slow").line } });
    expect(response.status).toBe(201);
    expect(performance.now() - started).toBeGreaterThanOrEqual(delayMs - 5);
    expect(await publicKeyIds()).toContain((await readJson(response)).id);
    expect(await requestLog()).toMatchObject([{ method: "POST", status: 201, fault: "latency" }]);
  });

  it("reset_before drops the connection without applying the request", async () => {
    const before = await publicKeyIds();
    await configure({ rate: 1, kinds: ["reset_before"], seed: 1 });
    const result = await raw("POST", "/user/keys", { public_key: ed25519Key("dropped").line });
    expect(result).toEqual({ error: expect.stringMatching(/ECONNRESET|socket hang up/) });
    await control("DELETE");
    expect(await publicKeyIds()).toEqual(before);
    expect(await requestLog()).toMatchObject([{ method: "POST", status: 0, userId: 1, fault: "reset_before" }]);
  });

  it("reset_after applies and saves the request, then drops the connection before any response", async () => {
    const key = ed25519Key("applied");
    await configure({ rate: 1, kinds: ["reset_after"], seed: 1 });
    const result = await raw("POST", "/user/keys", { public_key: key.line });
    expect(result).toEqual({ error: expect.stringMatching(/ECONNRESET|socket hang up/) });
    await control("DELETE");
    const state = await readJson(await fetch(`${service.emulator.url}/_emulator/state`));
    const created = state.accounts[0].publicKeys.find((row: { fingerprint: string }) => row.fingerprint === key.fingerprint);
    expect(created).toBeDefined();
    const saved = JSON.parse(readFileSync(join(service.dataDir, "state.json"), "utf8"));
    expect(saved.tables.publicKeys.map((row: { id: number }) => row.id)).toContain(created.id);
    expect(await requestLog()).toMatchObject([{ method: "POST", status: 0, fault: "reset_after" }]);
  });

  it("hold_after applies and saves the request, logs it, and answers only after holdMs", async () => {
    const key = ed25519Key("held");
    await configure({ rate: 1, kinds: ["hold_after"], methods: ["POST"], holdMs: 1500, seed: 1 });
    const started = Date.now();
    const answer = raw("POST", "/user/keys", { public_key: key.line });
    await expect.poll(async () => (await requestLog()).length, { timeout: 1000, interval: 50 }).toBe(1);
    const state = await readJson(await fetch(`${service.emulator.url}/_emulator/state`));
    expect(state.accounts[0].publicKeys.some((row: { fingerprint: string }) => row.fingerprint === key.fingerprint)).toBe(true);
    expect(await answer).toMatchObject({ status: 201 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    await control("DELETE");
    expect(await requestLog()).toMatchObject([{ method: "POST", status: 201, fault: "hold_after" }]);
  });

  it("logs faulted requests with their kind and normal ones with null", async () => {
    await configure({ rate: 0.5, kinds: ["500"], seed: 99 });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await call(service.emulator, "/user/keys")).status);
    const log = await requestLog();
    expect(log.map((entry) => entry.status)).toEqual(statuses);
    expect(log.map((entry) => entry.fault)).toEqual(statuses.map((status) => (status === 500 ? "500" : null)));
  });
});
