/** Retries against a scripted local server, with virtual time: attempts, waits and what is thrown. */
import { describe, expect, it } from "vitest";
import { ConnectionError, OutcomeUnknownError, RateLimitError, ServerError, ValidationError } from "../../../provider/client/errors";
import type { ApiRequest } from "../../../provider/client/http";
import { RETRY_DEFAULTS } from "../../../provider/client/policies/retry";
import { clientFor, failureOf, ok, startScriptedServer, useScriptedServer, type ScriptedServer, type Step } from "./scripted-server";

const serve = useScriptedServer();

const fault = (status: number, headers: Record<string, string> = {}): Step => ({ status, headers, body: { message: `fault ${status}` } });
const drop: Step = { drop: true };

const REQUESTS: Record<string, ApiRequest> = {
  GET: { method: "GET", path: "/things/1" },
  PUT: { method: "PUT", path: "/things/1", body: { name: "x" } },
  DELETE: { method: "DELETE", path: "/things/1" },
  "POST marked idempotent": { method: "POST", path: "/things/1/read", body: {}, idempotent: true },
};

describe("retries of requests safe to repeat", () => {
  describe.each(Object.entries(REQUESTS))("%s", (_name, request) => {
    it.each([
      ["500", fault(500), "500"],
      ["503", fault(503), "503"],
      ["429", fault(429), "429"],
      ["a dropped connection", drop, "connection"],
    ])("retries after %s and succeeds", async (_label, failure, reason) => {
      const { url, received } = await serve([failure, failure, ok({ id: 1 })]);
      const client = clientFor(url);
      const response = await client.request(request);
      expect(response.body).toEqual({ id: 1 });
      expect(received).toHaveLength(3);
      expect(received.every((r) => r.method === request.method)).toBe(true);
      expect(client.stats).toMatchObject({ requests: 3, retries: 2, retriesByReason: { [reason]: 2 } });
      expect(client.clock.waits).toHaveLength(2);
    });
  });

  it("waits with full jitter under a doubling ceiling that never exceeds the cap", async () => {
    const { url } = await serve(Array.from({ length: 9 }, () => fault(503)));
    const client = clientFor(url, { maxRetries: 8, retryBudgetSeconds: 3600 }, { random: () => 0.999999, baseDelayMs: 1_000, maxDelayMs: 20_000 });
    await failureOf(client.request(REQUESTS.GET!));
    const ceilings = [1_000, 2_000, 4_000, 8_000, 16_000, 20_000, 20_000, 20_000];
    expect(client.clock.waits).toHaveLength(8);
    client.clock.waits.forEach((wait, i) => {
      expect(wait).toBeLessThanOrEqual(ceilings[i]!);
      expect(wait).toBeGreaterThan(ceilings[i]! * 0.99);
    });
  });

  it("draws the wait uniformly from zero: random 0 means no wait", async () => {
    const { url } = await serve([fault(500), ok()]);
    const client = clientFor(url, {}, { random: () => 0 });
    await client.request(REQUESTS.GET!);
    expect(client.clock.waits).toEqual([0]);
  });

  it("stops after etl:maxRetries and throws the last error", async () => {
    const { url, received } = await serve([fault(500), fault(502), fault(503), ok()]);
    const client = clientFor(url, { maxRetries: 2 });
    const error = await failureOf(client.request(REQUESTS.GET!));
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503 });
    expect(received).toHaveLength(3);
    expect(client.stats).toMatchObject({ retries: 2, gaveUp: 1 });
  });

  it("stops when the next wait would pass the time budget, throwing the last error", async () => {
    const { url, received } = await serve(Array.from({ length: 10 }, () => fault(500)));
    // Ceilings 1, 2, 4, 8 s with random 1: the budget of 5 s allows 1 + 2, not the 4 after them.
    const client = clientFor(url, { maxRetries: 10, retryBudgetSeconds: 5 }, { random: () => 0.999999 });
    const error = await failureOf(client.request(REQUESTS.GET!));
    expect(error).toBeInstanceOf(ServerError);
    expect(received).toHaveLength(3);
    expect(client.clock.waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(5_000);
  });

  it("does not retry other client errors", async () => {
    const { url, received } = await serve([fault(422), ok()]);
    const client = clientFor(url);
    expect(await failureOf(client.request(REQUESTS.PUT!))).toBeInstanceOf(ValidationError);
    expect(received).toHaveLength(1);
    expect(client.stats.retries).toBe(0);
  });
});

describe("429 and Retry-After", () => {
  it("waits the seconds Retry-After names", async () => {
    const { url } = await serve([fault(429, { "retry-after": "7" }), ok()]);
    const client = clientFor(url);
    await client.request(REQUESTS.GET!);
    expect(client.clock.waits).toEqual([7_000]);
    expect(client.stats).toMatchObject({ rateLimited: 1, retriesByReason: { "429": 1 }, backoffMs: 7_000 });
  });

  it("waits until the HTTP date Retry-After names", async () => {
    const scripted = await serve([]);
    const client = clientFor(scripted.url);
    const at = new Date(client.clock.time + 42_000).toUTCString();
    scripted.script = [fault(429, { "retry-after": at }), ok()];
    await client.request(REQUESTS.GET!);
    expect(client.clock.waits).toEqual([42_000]);
  });

  it("honours Retry-After on 503 too", async () => {
    const { url } = await serve([fault(503, { "retry-after": "3" }), ok()]);
    const client = clientFor(url);
    await client.request(REQUESTS.GET!);
    expect(client.clock.waits).toEqual([3_000]);
  });

  it("without Retry-After waits a jittered default of 2.5 to 5 s", async () => {
    const { url } = await serve([fault(429), fault(429), ok()]);
    const client = clientFor(url, {}, { random: () => 0.999999 });
    await client.request(REQUESTS.GET!);
    for (const wait of client.clock.waits) {
      expect(wait).toBeGreaterThanOrEqual(RETRY_DEFAULTS.rateLimitDelayMs / 2);
      expect(wait).toBeLessThanOrEqual(RETRY_DEFAULTS.rateLimitDelayMs);
    }
  });

  it.each([
    ["a date in the past", "Wed, 21 Oct 2015 07:28:00 GMT", [0]],
    ["an unreadable value", "soon", [2_500]],
  ])("treats Retry-After with %s sensibly", async (_label, value, waits) => {
    const { url } = await serve([fault(429, { "retry-after": value }), ok()]);
    const client = clientFor(url, {}, { random: () => 0 });
    await client.request(REQUESTS.GET!);
    expect(client.clock.waits).toEqual(waits);
  });

  it("fails at once, saying when to retry, when Retry-After is beyond the budget", async () => {
    const headers = { "retry-after": "1234", "x-ratelimit-limit": "5000", "x-ratelimit-remaining": "0" };
    const { url, received } = await serve([fault(429, headers), ok()]);
    const client = clientFor(url);
    const error = await failureOf(client.request(REQUESTS.GET!));
    expect(error).toBeInstanceOf(RateLimitError);
    const retryAt = new Date(client.clock.time + 1_234_000).toISOString().replace(/\.000Z$/, "Z");
    expect(error.message).toContain("the hourly API allowance is used up");
    expect(error.message).toContain(`retry after ${retryAt} (in 1234 s`);
    expect(error.message).toContain("etl:retryBudgetSeconds");
    expect(received).toHaveLength(1);
    expect(client.clock.waits).toEqual([]);
  });

  it("names the used-up allowance when retries run out on 429s without Retry-After", async () => {
    const headers = { "x-ratelimit-limit": "5000", "x-ratelimit-remaining": "0" };
    const { url, received } = await serve(Array.from({ length: 5 }, () => fault(429, headers)));
    const client = clientFor(url, { maxRetries: 2 });
    const error = await failureOf(client.request(REQUESTS.GET!));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toMatch(/still rate limited after 2 retries over \d+ s: the hourly API allowance is used up/);
    expect(received).toHaveLength(3);
  });
});

describe("requests that are not idempotent (POST creating something)", () => {
  const create: ApiRequest = { method: "POST", path: "/things", body: { name: "x" } };

  it("retries a 429, which the service did not apply", async () => {
    const { url, received } = await serve([fault(429, { "retry-after": "1" }), { status: 201, body: { id: 9 } }]);
    const client = clientFor(url);
    expect((await client.request(create)).body).toEqual({ id: 9 });
    expect(received).toHaveLength(2);
  });

  it.each([
    ["500", fault(500), ServerError],
    ["503", fault(503), ServerError],
    ["a connection dropped after sending", drop, ConnectionError],
  ])("throws OutcomeUnknownError after exactly one attempt on %s", async (_label, failure, causeClass) => {
    const { url, received } = await serve([failure, { status: 201, body: { id: 9 } }]);
    const client = clientFor(url);
    const error = await failureOf(client.request(create));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).causeError).toBeInstanceOf(causeClass);
    expect(error.message).toContain("the outcome is unknown");
    expect(received).toHaveLength(1);
    expect(client.stats).toMatchObject({ requests: 1, retries: 0, outcomeUnknown: 1 });
  });

  it("retries when the connection was refused, since nothing was sent", async () => {
    const placeholder = await startScriptedServer([]);
    const port = placeholder.port;
    await placeholder.close();
    let restarted: ScriptedServer | undefined;
    const client = clientFor(
      `http://127.0.0.1:${port}`,
      {},
      {
        sleep: async () => {
          restarted ??= await startScriptedServer([{ status: 201, body: { id: 5 } }], port);
        },
      },
    );
    try {
      const response = await client.request(create);
      expect(response.body).toEqual({ id: 5 });
      expect(restarted!.received).toHaveLength(1);
      expect(client.stats.retriesByReason).toEqual({ connection: 1 });
    } finally {
      await restarted?.close();
    }
  });
});
