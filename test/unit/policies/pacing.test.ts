/** Pacing by the rate-limit headers: off with plenty left or no headers, spaced near the end. */
import { afterEach, describe, expect, it } from "vitest";
import { createPacingState, pacingIntervalMs } from "../../../provider/client/policies/pacing";
import { clientFor, ok, startScriptedServer, type ScriptedServer, type Step } from "./scripted-server";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const limited = (limit: number, remaining: number): Step => ok({}, { "x-ratelimit-limit": String(limit), "x-ratelimit-remaining": String(remaining) });

async function run(script: Step[], count = script.length) {
  server = await startScriptedServer(script);
  const client = clientFor(server.url);
  for (let i = 0; i < count; i += 1) await client.request({ method: "GET", path: "/x" });
  return client;
}

describe("pacing", () => {
  it.each([
    [5000, 100, undefined],
    [5000, 99, 720],
    [1000, 20, undefined],
    [1000, 19, 3_600],
    [100, 19, 36_000],
  ])("limit %i, remaining %i: interval %s ms", (limit, remaining, expected) => {
    expect(pacingIntervalMs({ ...createPacingState(), limit, remaining })).toBe(expected);
  });

  it("never paces without the headers", async () => {
    const client = await run([ok(), ok(), ok()]);
    expect(client.clock.waits).toEqual([]);
    expect(client.stats.pacedWaits).toBe(0);
  });

  it("does not pace above the reserve", async () => {
    const client = await run([limited(5000, 4000), limited(5000, 3999), limited(5000, 3998)]);
    expect(client.clock.waits).toEqual([]);
  });

  it("spaces requests at the sustainable rate below the reserve", async () => {
    const client = await run([limited(1000, 10), limited(1000, 9), limited(1000, 8), limited(1000, 7)]);
    // The first request learns the remainder; each later one waits one interval after the one before.
    expect(client.clock.waits).toEqual([3_600, 3_600, 3_600]);
    expect(client.stats).toMatchObject({ pacedWaits: 3, pacedMs: 10_800, backoffMs: 0 });
  });

  it("queues concurrent requests one interval apart", async () => {
    server = await startScriptedServer([limited(1000, 10), limited(1000, 9), limited(1000, 8), limited(1000, 7)]);
    // Time stands still while they wait, as it would when they all ask at the same moment.
    const waits: number[] = [];
    const client = clientFor(server.url, {}, { sleep: async (ms) => void waits.push(ms) });
    await client.request({ method: "GET", path: "/x" });
    await Promise.all([1, 2, 3].map(() => client.request({ method: "GET", path: "/x" })));
    expect(waits).toEqual([3_600, 7_200, 10_800]);
  });

  it("stops pacing once the allowance renews", async () => {
    const client = await run([limited(1000, 5), limited(1000, 999), limited(1000, 998), limited(1000, 997)]);
    expect(client.clock.waits).toEqual([3_600]);
  });

  it("learns from the headers of error answers too", async () => {
    const rateLimited: Step = { status: 429, headers: { "retry-after": "1", "x-ratelimit-limit": "1000", "x-ratelimit-remaining": "0" } };
    const client = await run([rateLimited, ok(), ok()], 2);
    // The Retry-After wait of 1 s, then the resend waits out the rest of its interval from the 429.
    expect(client.clock.waits).toEqual([1_000, 2_600, 3_600]);
    expect(client.stats).toMatchObject({ rateLimited: 1, pacedWaits: 2, backoffMs: 1_000 });
  });

  it("is shared by clients given the same state", async () => {
    server = await startScriptedServer([limited(1000, 1), ok()]);
    const shared = createPacingState();
    const first = clientFor(server.url, {}, { pacing: shared });
    await first.request({ method: "GET", path: "/x" });
    const second = clientFor(server.url, {}, { pacing: shared });
    second.clock.time = first.clock.time;
    await second.request({ method: "GET", path: "/x" });
    expect(second.clock.waits).toEqual([3_600]);
  });
});

describe("pacing to the renewal the service announces", () => {
  it("spreads the credits left over the time until the allowance renews, never slower than the hourly rate", () => {
    const now = 1_000_000;
    const state = { ...createPacingState(), limit: 300, remaining: 10, renewsAt: now + 20_000 };
    expect(pacingIntervalMs(state, now)).toBe(2_000);
    expect(pacingIntervalMs({ ...state, renewsAt: now + 3_500_000 }, now)).toBe(12_000);
    expect(pacingIntervalMs({ ...state, renewsAt: now - 1 }, now)).toBe(12_000);
    expect(pacingIntervalMs({ ...state, remaining: 200 }, now)).toBeUndefined();
  });

  it("counts the requests under way as spent: the last answer's remainder does not know of them", () => {
    const now = 1_000_000;
    const state = { ...createPacingState(), limit: 300, remaining: 25, renewsAt: now + 20_000 };
    expect(pacingIntervalMs(state, now)).toBeUndefined();
    // 25 left by the last answer, 15 sent since: 10 to spread over the 20 s.
    expect(pacingIntervalMs({ ...state, inFlight: 15 }, now)).toBe(2_000);
    // More under way than the remainder: the next waits for the renewal.
    expect(pacingIntervalMs({ ...state, inFlight: 40 }, now)).toBe(12_000);
  });
});
