/** /_emulator/faults: the settings it takes and refuses, what it reports, and what faults never reach. */
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../../emulator";
import { FAULT_KINDS } from "../../../emulator/faults";
import { call, readJson, testFixtures } from "../helpers";
import { useFaultsService } from "./helpers";

const service = useFaultsService();
const { configure, control } = service;

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
    const response = await fetch(`${service.emulator.url}/_emulator/faults`, { method: "PUT", headers: { "Content-Type": "application/json" }, body });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await readJson(response)).toEqual({ message: "Request body is nested too deeply: arrays and objects may nest at most 64 levels." });
    expect((await readJson(await control("GET"))).enabled).toBe(false);
  });

  it("answers 400 to malformed JSON and 415 to another content type", async () => {
    const malformed = await fetch(`${service.emulator.url}/_emulator/faults`, { method: "PUT", headers: { "Content-Type": "application/json" }, body: "{" });
    expect(malformed.status).toBe(400);
    const text = await fetch(`${service.emulator.url}/_emulator/faults`, { method: "PUT", headers: { "Content-Type": "text/plain" }, body: "{}" });
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
    for (let i = 0; i < 3; i++) expect((await call(service.emulator, "/user/keys")).status).toBe(503);
    const off = await readJson(await control("DELETE"));
    expect(off).toMatchObject({ enabled: false, rate: 1, kinds: ["503"], seed: 1, requests: 3, injected: { "503": 3, "500": 0 } });
    expect((await call(service.emulator, "/user/keys")).status).toBe(200);
    expect(await readJson(await control("GET"))).toMatchObject({ requests: 3, injected: { "503": 3 } });
    await configure({ rate: 1, kinds: ["503"], seed: 1 });
    expect(await readJson(await control("GET"))).toMatchObject({ requests: 0, injected: { "503": 0 } });
  });

  it("replays the same faults for the same seed and requests", async () => {
    const run = async (): Promise<number[]> => {
      await configure({ rate: 0.5, kinds: ["500", "503", "429"], seed: 12345 });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await call(service.emulator, "/user/keys")).status);
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
    for (let i = 0; i < 20; i++) expect((await call(service.emulator, "/user/keys")).status).toBe(200);
    expect((await readJson(await control("GET"))).requests).toBe(20);
  });
});

describe("what faults never touch", () => {
  it("control endpoints", async () => {
    await configure({ rate: 1, kinds: ["500", "reset_before"], seed: 1 });
    for (const path of ["/health", "/state", "/requests", "/faults"]) {
      expect((await fetch(`${service.emulator.url}/_emulator${path}`)).status, path).toBe(200);
    }
  });

  it("requests that fail the Accept check or authentication", async () => {
    await configure({ rate: 1, kinds: ["500"], seed: 1 });
    expect((await call(service.emulator, "/user/keys", { key: null })).status).toBe(401);
    expect((await call(service.emulator, "/user/keys", { headers: { Accept: "application/json" } })).status).toBe(404);
    expect((await readJson(await control("GET"))).requests).toBe(0);
  });
});
