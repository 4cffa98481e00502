/** The counters a client keeps, and the ones a provider process shares across its contexts. */
import { afterEach, describe, expect, it } from "vitest";
import { configuredBy, processResources } from "../../../provider/context";
import { clientFor, failureOf, ok, startScriptedServer, type ScriptedServer } from "./scripted-server";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("client counters", () => {
  it("count requests, retries by reason, 429s, and the time spent waiting", async () => {
    server = await startScriptedServer([{ status: 503 }, { status: 429, headers: { "retry-after": "2" } }, { drop: true }, ok(), { status: 500 }]);
    const client = clientFor(server.url, {}, { random: () => 0.5 });
    await client.request({ method: "GET", path: "/a" });
    await failureOf(client.request({ method: "POST", path: "/b", body: {} }));
    expect(client.stats).toEqual({
      requests: 5,
      retries: 3,
      retriesByReason: { "503": 1, "429": 1, connection: 1 },
      rateLimited: 1,
      outcomeUnknown: 1,
      gaveUp: 0,
      pacedWaits: 0,
      pacedMs: 0,
      // Jitter 0.5 of the 1 s ceiling, Retry-After 2 s, jitter 0.5 of the 4 s ceiling.
      backoffMs: 500 + 2_000 + 2_000,
    });
  });

  it("are kept per process by the provider's client and can be reset", async () => {
    server = await startScriptedServer([{ status: 500 }, ok()]);
    const settings: Record<string, string> = {
      "etl:apiUrl": server.url,
      "etl:accountId": "acme",
      "etl:apiKey": "test-key",
      "etl:maxRetries": "1",
    };
    const shared = processResources();
    // A real backoff of at most 1 s: the provider's client uses real time.
    await configuredBy((key) => settings[key], shared, true)().request({ method: "GET", path: "/a" });
    const stats = shared.stats();
    expect(stats).toMatchObject({ requests: 2, retries: 1, retriesByReason: { "500": 1 } });
    stats.retries = 99;
    expect(shared.stats().retries).toBe(1);
    shared.resetStats();
    expect(shared.stats()).toMatchObject({ requests: 0, retries: 0, retriesByReason: {} });
  });
});
