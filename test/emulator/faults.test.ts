import { request } from "node:http";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { FAULT_KINDS, FaultInjector, MAX_LATENCY_MS, MIN_LATENCY_MS, parseFaultConfig } from "../../emulator/faults";
import { ACCEPT, ACCOUNT, basic, call, control as controlRequest, DANA_KEY, ed25519Key, readJson, testFixtures } from "./helpers";

let emulator: RunningEmulator;
const dataDir = mkdtempSync(join(tmpdir(), "etl-faults-"));

beforeAll(async () => {
  emulator = await startEmulator({ fixtures: testFixtures(), dataDir, creditsPerHour: 100_000 });
});

afterAll(async () => {
  await emulator.close();
  rmSync(dataDir, { recursive: true, force: true });
});

afterEach(async () => {
  await fetch(`${emulator.url}/_emulator/faults`, { method: "DELETE" });
  await fetch(`${emulator.url}/_emulator/requests`, { method: "DELETE" });
});

function control(method: string, body?: unknown): Promise<Response> {
  return controlRequest(emulator, "/faults", method, body);
}

async function configure(body: Record<string, unknown>): Promise<void> {
  const response = await control("PUT", body);
  expect(response.status).toBe(200);
}

async function requestLog(): Promise<any[]> {
  return readJson(await fetch(`${emulator.url}/_emulator/requests`));
}

async function publicKeyIds(): Promise<number[]> {
  const state = await readJson(await fetch(`${emulator.url}/_emulator/state`));
  return state.accounts[0].publicKeys.map((key: { id: number }) => key.id);
}

type RawResult = { status: number; headers: Record<string, unknown>; body: string } | { error: string };

/** One request on its own connection, so a dropped connection shows as an error, not a retry. */
function raw(method: string, path: string, body?: unknown): Promise<RawResult> {
  const { hostname, port } = new URL(emulator.url);
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = { Accept: ACCEPT, Authorization: basic(DANA_KEY) };
  if (text !== undefined) headers["Content-Type"] = "application/json";
  return new Promise((resolve) => {
    const req = request({ hostname, port, method, path: `/${ACCOUNT}/api${path}`, headers, agent: false }, (res) => {
      let data = "";
      res.on("data", (chunk: Buffer) => (data += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
    });
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end(text);
  });
}

describe("PUT /_emulator/faults validation", () => {
  it.each([
    [{}, /^rate is required/],
    [{ rate: 1.5 }, /^rate must be a number from 0 to 1/],
    [{ rate: -0.1 }, /^rate must be/],
    [{ rate: "0.5" }, /^rate must be/],
    [{ rate: null }, /^rate must be/],
    [{ rate: 0.5, kinds: [] }, /^kinds must be a non-empty array/],
    [{ rate: 0.5, kinds: "500" }, /^kinds must be a non-empty array/],
    [{ rate: 0.5, kinds: ["500", "404"] }, /^kinds contains "404"/],
    [{ rate: 0.5, kinds: [500] }, /^kinds contains 500/],
    [{ rate: 0.5, kinds: ["500", "500"] }, /^kinds must not list a kind twice/],
    [{ rate: 0.5, kinds: [["500"]] }, /^kinds contains an array; allowed: "500"/],
    [{ rate: 0.5, kinds: [{ kind: "500" }] }, /^kinds contains an object; allowed/],
    [{ rate: 0.5, kinds: [null] }, /^kinds contains null; allowed/],
    [{ rate: 0.5, kinds: ["x".repeat(5000)] }, /^kinds contains a string of 5000 characters; allowed/],
    [{ rate: 0.5, ["y".repeat(5000)]: 1 }, /^y{40}… is not a fault setting; expected rate, kinds, seed, methods, holdMs$/],
    [{ rate: 0.5, seed: -1 }, /^seed must be an integer/],
    [{ rate: 0.5, seed: 1.5 }, /^seed must be an integer/],
    [{ rate: 0.5, seed: 2 ** 32 }, /^seed must be an integer/],
    [{ rate: 0.5, speed: 2 }, /^speed is not a fault setting/],
    [[0.5], /^the body must be a JSON object/],
  ])("answers 400 naming the field for %j", async (body, message) => {
    const response = await control("PUT", body);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/json");
    const error = await readJson(response);
    expect(Object.keys(error)).toEqual(["message"]);
    expect(error.message).toMatch(message);
  });

  it("answers 400 naming the depth rule to kinds nested 100,000 levels deep", async () => {
    const body = `{"rate":1,"kinds":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const response = await fetch(`${emulator.url}/_emulator/faults`, { method: "PUT", headers: { "Content-Type": "application/json" }, body });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await readJson(response)).toEqual({ message: "Request body is nested too deeply: arrays and objects may nest at most 64 levels." });
    expect((await readJson(await control("GET"))).enabled).toBe(false);
  });

  it("answers 400 to malformed JSON and 415 to another content type", async () => {
    const malformed = await fetch(`${emulator.url}/_emulator/faults`, { method: "PUT", headers: { "Content-Type": "application/json" }, body: "{" });
    expect(malformed.status).toBe(400);
    const text = await fetch(`${emulator.url}/_emulator/faults`, { method: "PUT", headers: { "Content-Type": "text/plain" }, body: "{}" });
    expect(text.status).toBe(415);
    expect(text.headers.get("content-type")).toBe("application/json");
  });

  it("leaves the configuration unchanged when rejecting one", async () => {
    await configure({ rate: 0.25, kinds: ["503"], seed: 3 });
    await control("PUT", { rate: 3 });
    expect(await readJson(await control("GET"))).toMatchObject({ enabled: true, rate: 0.25, kinds: ["503"], seed: 3 });
  });
});

describe("/_emulator/faults", () => {
  it("reports faults off before any configuration", async () => {
    const fresh = await startEmulator({ fixtures: testFixtures() });
    try {
      const status = await readJson(await fetch(`${fresh.url}/_emulator/faults`));
      expect(status).toEqual({
        enabled: false,
        rate: 0,
        kinds: [],
        seed: null,
        methods: null,
        holdMs: 3000,
        requests: 0,
        injected: { "500": 0, "503": 0, "429": 0, latency: 0, reset_before: 0, reset_after: 0, hold_after: 0 },
      });
    } finally {
      await fresh.close();
    }
  });

  it("defaults kinds to every kind and reports a random seed to replay with", async () => {
    const response = await control("PUT", { rate: 0 });
    const status = await readJson(response);
    expect(status).toMatchObject({ enabled: true, rate: 0, kinds: [...FAULT_KINDS], requests: 0 });
    expect(Number.isInteger(status.seed)).toBe(true);
  });

  it("counts faults per kind and requests since configured, and keeps the counts after DELETE", async () => {
    await configure({ rate: 1, kinds: ["503"], seed: 1 });
    for (let i = 0; i < 3; i++) expect((await call(emulator, "/user/keys")).status).toBe(503);
    const off = await readJson(await control("DELETE"));
    expect(off).toMatchObject({ enabled: false, rate: 1, kinds: ["503"], seed: 1, requests: 3, injected: { "503": 3, "500": 0 } });
    expect((await call(emulator, "/user/keys")).status).toBe(200);
    expect(await readJson(await control("GET"))).toMatchObject({ requests: 3, injected: { "503": 3 } });
    await configure({ rate: 1, kinds: ["503"], seed: 1 });
    expect(await readJson(await control("GET"))).toMatchObject({ requests: 0, injected: { "503": 0 } });
  });

  it("replays the same faults for the same seed and requests", async () => {
    const run = async (): Promise<number[]> => {
      await configure({ rate: 0.5, kinds: ["500", "503", "429"], seed: 12345 });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await call(emulator, "/user/keys")).status);
      return statuses;
    };
    const first = await run();
    expect(await run()).toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 500, 503, 429]));
    const status = await readJson(await control("GET"));
    expect(status.injected["500"] + status.injected["503"] + status.injected["429"]).toBe(first.filter((s) => s !== 200).length);
  });

  it("injects nothing at rate 0", async () => {
    await configure({ rate: 0, seed: 9 });
    for (let i = 0; i < 20; i++) expect((await call(emulator, "/user/keys")).status).toBe(200);
    expect((await readJson(await control("GET"))).requests).toBe(20);
  });
});

describe("fault kinds", () => {
  it.each([
    ["500", 500, "Internal server error."],
    ["503", 503, "Service unavailable: try again later."],
  ])("%s answers that status with an Error body, applies nothing and costs nothing", async (kind, status, message) => {
    const before = await publicKeyIds();
    const remaining = (await call(emulator, "/user/keys")).headers.get("x-ratelimit-remaining");
    await configure({ rate: 1, kinds: [kind], seed: 1 });
    const response = await call(emulator, "/user/keys", { method: "POST", body: { public_key: ed25519Key("faulted").line } });
    expect(response.status).toBe(status);
    expect(await readJson(response)).toEqual({ message });
    expect(response.headers.get("x-ratelimit-remaining")).toBe(remaining);
    expect(response.headers.get("x-ratelimit-limit")).toBe("100000");
    expect(await publicKeyIds()).toEqual(before);
  });

  it("429 answers Too Many Requests with Retry-After 1 and rate-limit headers, uncharged", async () => {
    const remaining = (await call(emulator, "/user/keys")).headers.get("x-ratelimit-remaining");
    await configure({ rate: 1, kinds: ["429"], seed: 1 });
    const response = await call(emulator, "/user/keys/1", { method: "DELETE" });
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
    const response = await call(emulator, "/user/keys", { method: "POST", body: { public_key: ed25519Key("slow").line } });
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
    const state = await readJson(await fetch(`${emulator.url}/_emulator/state`));
    const created = state.accounts[0].publicKeys.find((row: { fingerprint: string }) => row.fingerprint === key.fingerprint);
    expect(created).toBeDefined();
    const saved = JSON.parse(readFileSync(join(dataDir, "state.json"), "utf8"));
    expect(saved.tables.publicKeys.map((row: { id: number }) => row.id)).toContain(created.id);
    expect(await requestLog()).toMatchObject([{ method: "POST", status: 0, fault: "reset_after" }]);
  });

  it("hold_after applies and saves the request, logs it, and answers only after holdMs", async () => {
    const key = ed25519Key("held");
    await configure({ rate: 1, kinds: ["hold_after"], methods: ["POST"], holdMs: 1500, seed: 1 });
    const started = Date.now();
    const answer = raw("POST", "/user/keys", { public_key: key.line });
    await expect.poll(async () => (await requestLog()).length, { timeout: 1000, interval: 50 }).toBe(1);
    const state = await readJson(await fetch(`${emulator.url}/_emulator/state`));
    expect(state.accounts[0].publicKeys.some((row: { fingerprint: string }) => row.fingerprint === key.fingerprint)).toBe(true);
    expect(await answer).toMatchObject({ status: 201 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    await control("DELETE");
    expect(await requestLog()).toMatchObject([{ method: "POST", status: 201, fault: "hold_after" }]);
  });

  it("logs faulted requests with their kind and normal ones with null", async () => {
    await configure({ rate: 0.5, kinds: ["500"], seed: 99 });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await call(emulator, "/user/keys")).status);
    const log = await requestLog();
    expect(log.map((entry) => entry.status)).toEqual(statuses);
    expect(log.map((entry) => entry.fault)).toEqual(statuses.map((status) => (status === 500 ? "500" : null)));
  });
});

describe("what faults never touch", () => {
  it("control endpoints", async () => {
    await configure({ rate: 1, kinds: ["500", "reset_before"], seed: 1 });
    for (const path of ["/health", "/state", "/requests", "/faults"]) {
      expect((await fetch(`${emulator.url}/_emulator${path}`)).status, path).toBe(200);
    }
  });

  it("requests that fail the Accept check or authentication", async () => {
    await configure({ rate: 1, kinds: ["500"], seed: 1 });
    expect((await call(emulator, "/user/keys", { key: null })).status).toBe(401);
    expect((await call(emulator, "/user/keys", { headers: { Accept: "application/json" } })).status).toBe(404);
    expect((await readJson(await control("GET"))).requests).toBe(0);
  });
});

describe("FaultInjector", () => {
  it("injects at about the configured rate, every kind, latencies within bounds", () => {
    const faults = new FaultInjector();
    faults.configure(parseFaultConfig({ rate: 0.3, seed: 2024 }));
    const delays: number[] = [];
    let injected = 0;
    for (let i = 0; i < 20_000; i++) {
      const decision = faults.decide("GET");
      if (decision === undefined) continue;
      injected++;
      if (decision.kind === "latency") delays.push(decision.delayMs);
    }
    expect(injected / 20_000).toBeGreaterThan(0.28);
    expect(injected / 20_000).toBeLessThan(0.32);
    expect(Object.values(faults.status().injected).every((count) => count > 800)).toBe(true);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(MIN_LATENCY_MS);
    expect(Math.max(...delays)).toBeLessThanOrEqual(MAX_LATENCY_MS);
  });

  it("decides nothing once disabled", () => {
    const faults = new FaultInjector();
    faults.configure({ rate: 1, kinds: ["500"], seed: 1, holdMs: 0 });
    faults.disable();
    expect(faults.decide("GET")).toBeUndefined();
  });

  it("considers only the methods it is given, and counts only those", () => {
    const faults = new FaultInjector();
    faults.configure(parseFaultConfig({ rate: 1, kinds: ["500"], methods: ["POST"] }));
    expect(faults.decide("GET")).toBeUndefined();
    expect(faults.decide("POST")).toEqual({ kind: "500", delayMs: 0 });
    expect(faults.status()).toMatchObject({ requests: 1, methods: ["POST"] });
  });

  it("refuses methods and holdMs it cannot use, naming the field", () => {
    expect(() => parseFaultConfig({ rate: 1, methods: ["PATCH"] })).toThrow(/methods must be a non-empty array of GET, POST, PUT, DELETE/);
    expect(() => parseFaultConfig({ rate: 1, methods: [] })).toThrow(/methods must be/);
    expect(() => parseFaultConfig({ rate: 1, holdMs: -1 })).toThrow(/holdMs must be an integer from 0 to 600000/);
  });
});
