import { describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { CREDIT_WINDOW_MS, CreditLedger, creditsExhaustedMessage } from "../../../emulator/credits";
import { ACCOUNT, call, closedAfterEach, ed25519Key, LEE_KEY, OTHER_ACCOUNT, OTHER_KEY, readJson, testFixtures } from "../helpers";

describe("CreditLedger", () => {
  function ledger(perHour: number): { credits: CreditLedger; advance: (ms: number) => void } {
    let now = 1_000_000;
    return { credits: new CreditLedger(perHour, () => now), advance: (ms) => (now += ms) };
  }

  it("counts down one credit per call and refuses the call after the last", () => {
    const { credits } = ledger(3);
    expect([1, 2, 3].map(() => credits.charge(1).remaining)).toEqual([2, 1, 0]);
    const refused = credits.charge(1);
    expect(refused).toEqual({ allowed: false, limit: 3, remaining: 0, renewsInSeconds: 3600 });
  });

  it("renews a shortened window after its own length, and says when in seconds", () => {
    let now = 1_000_000;
    const credits = new CreditLedger(2, () => now, 30_000);
    credits.charge(1);
    credits.charge(1);
    expect(credits.charge(1)).toEqual({ allowed: false, limit: 2, remaining: 0, renewsInSeconds: 30 });
    now += 30_000;
    expect(credits.charge(1)).toEqual({ allowed: true, limit: 2, remaining: 1, renewsInSeconds: 30 });
    expect(() => new CreditLedger(2, () => now, 10)).toThrow(/at least 1000/);
  });

  it("starts a user's window at the first call and renews it an hour later", () => {
    const { credits, advance } = ledger(2);
    credits.charge(1);
    advance(10 * 60 * 1000);
    credits.charge(1);
    expect(credits.charge(1)).toMatchObject({ allowed: false, renewsInSeconds: 50 * 60 });
    advance(50 * 60 * 1000 - 1500);
    expect(credits.charge(1)).toMatchObject({ allowed: false, renewsInSeconds: 2 });
    advance(1500);
    expect(credits.charge(1)).toEqual({ allowed: true, limit: 2, remaining: 1, renewsInSeconds: 3600 });
  });

  it("does not let refused calls push the renewal back", () => {
    const { credits, advance } = ledger(1);
    credits.charge(1);
    for (let i = 0; i < 10; i++) {
      advance(CREDIT_WINDOW_MS / 20);
      credits.charge(1);
    }
    advance(CREDIT_WINDOW_MS / 2);
    expect(credits.charge(1).allowed).toBe(true);
  });

  it("keeps a separate allowance per user", () => {
    const { credits } = ledger(1);
    credits.charge(1);
    expect(credits.charge(1).allowed).toBe(false);
    expect(credits.charge(2)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it("peeks without spending or starting a window", () => {
    const { credits, advance } = ledger(5);
    expect(credits.peek(1)).toEqual({ allowed: true, limit: 5, remaining: 5, renewsInSeconds: 3600 });
    advance(60_000);
    credits.charge(1);
    expect(credits.peek(1)).toMatchObject({ remaining: 4, renewsInSeconds: 3600 });
    expect(credits.peek(1)).toMatchObject({ remaining: 4 });
  });

  it("rounds the renewal up to whole seconds, never below 1", () => {
    const { credits, advance } = ledger(1);
    credits.charge(1);
    advance(CREDIT_WINDOW_MS - 1);
    expect(credits.charge(1).renewsInSeconds).toBe(1);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("rejects an allowance of %s", (perHour) => {
    expect(() => new CreditLedger(perHour)).toThrow(RangeError);
  });

  it("words the refusal like the service", () => {
    expect(creditsExhaustedMessage({ allowed: false, limit: 5000, remaining: 0, renewsInSeconds: 42 })).toBe(
      "Rate Limit Exceeded: the hourly allowance of 5000 credits is used up; it renews in 42 seconds.",
    );
  });
});

describe("the allowance over HTTP", () => {
  const closeLater = closedAfterEach();

  async function start(creditsPerHour?: number): Promise<RunningEmulator> {
    return closeLater(await startEmulator({ fixtures: testFixtures(), creditsPerHour }));
  }

  it("defaults to 5,000 credits per hour", async () => {
    const response = await call(await start(), "/user/keys");
    expect(response.headers.get("x-ratelimit-limit")).toBe("5000");
    expect(response.headers.get("x-ratelimit-remaining")).toBe("4999");
    expect(Number(response.headers.get("x-ratelimit-reset"))).toBeGreaterThan(3590);
  });

  it("refuses the call over the allowance with 429 and Retry-After, without applying it", async () => {
    const running = await start(2);
    await call(running, "/user/keys");
    await call(running, "/user/keys");
    const response = await call(running, "/user/keys", { method: "POST", body: { public_key: ed25519Key("refused").line } });
    expect(response.status).toBe(429);
    const retryAfter = Number(response.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(3590);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(response.headers.get("x-ratelimit-limit")).toBe("2");
    expect(response.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(await readJson(response)).toEqual({
      message: `Rate Limit Exceeded: the hourly allowance of 2 credits is used up; it renews in ${retryAfter} seconds.`,
    });
    const state = await readJson(await fetch(`${running.url}/_emulator/state`));
    expect(state.accounts[0].publicKeys).toEqual([]);
  });

  it("charges authenticated calls whatever their outcome", async () => {
    const running = await start(10);
    const outcomes = [await call(running, "/no/such/path"), await call(running, "/user/keys", { method: "PUT" }), await call(running, "/user/keys/999")];
    expect(outcomes.map((response) => response.status)).toEqual([404, 405, 404]);
    expect(outcomes.map((response) => response.headers.get("x-ratelimit-remaining"))).toEqual(["9", "8", "7"]);
  });

  it("charges neither unauthenticated calls nor control endpoints, and sends them no rate-limit headers", async () => {
    const running = await start(1);
    const unauthenticated = await call(running, "/user/keys", { key: "wrong" });
    const unversioned = await fetch(`${running.url}/${ACCOUNT}/api/user/keys`);
    const control = await fetch(`${running.url}/_emulator/health`);
    for (const response of [unauthenticated, unversioned, control]) {
      expect(response.headers.get("x-ratelimit-limit")).toBeNull();
      expect(response.headers.get("x-ratelimit-remaining")).toBeNull();
    }
    expect((await call(running, "/user/keys")).status).toBe(200);
    expect((await call(running, "/user/keys")).status).toBe(429);
  });

  it("counts users separately, also within one account", async () => {
    const running = await start(1);
    expect((await call(running, "/user/keys")).status).toBe(200);
    expect((await call(running, "/user/keys")).status).toBe(429);
    expect((await call(running, "/user/keys", { key: LEE_KEY })).status).toBe(200);
    expect((await call(running, "/user/keys", { key: OTHER_KEY, account: OTHER_ACCOUNT })).status).toBe(200);
  });

  it("rejects an allowance that is not a positive integer", async () => {
    await expect(startEmulator({ creditsPerHour: 0 })).rejects.toThrow(RangeError);
    await expect(startEmulator({ creditsPerHour: 2.5 })).rejects.toThrow(RangeError);
  });
});
