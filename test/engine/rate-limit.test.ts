/**
 * The credit limit through the real engine: a stack of 500 public keys against an allowance of
 * 300 credits, on the service's clock: a window of 20 s instead of an hour, which the service
 * announces (`X-RateLimit-Reset`). The provider paces its requests once few credits remain,
 * spreading them to the renewal; `up` either carries on across windows or stops saying the
 * allowance is used up and when to try again, and whatever it created is exactly what the state
 * records.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PublicKey } from "pulumi-etl";
import { startEmulator, type RunningEmulator } from "pulumi-etl/emulator";
import { createTestStack, type TestStack } from "../support/engine";
import { TEST_ACCOUNT } from "../support/service";
import { freshEd25519Key } from "../support/soak";

const KEYS = 500;
const CREDITS_PER_WINDOW = 300;
const WINDOW_SECONDS = 20;

describe("the allowance running out mid-update", { timeout: 600_000 }, () => {
  let emulator: RunningEmulator;
  let test: TestStack;
  const apiKey = `rate-key-${process.pid}-${Date.now()}`;
  const keys = Array.from({ length: KEYS }, (_, i) => freshEd25519Key(`bulk-${i}`));

  const control = async (path: string) => (await fetch(`${emulator.url}/_emulator/${path}`)).json() as Promise<any>;

  beforeAll(async () => {
    emulator = await startEmulator({
      port: 0,
      creditsPerHour: CREDITS_PER_WINDOW,
      creditWindowSeconds: WINDOW_SECONDS,
      fixtures: { accounts: [{ id: 7, uid: TEST_ACCOUNT, users: [{ id: 70, name: "Test User", email: "test@example.com", apiKey }] }] },
    });
    test = await createTestStack("rate-limit", async () => {
      keys.forEach((publicKey, i) => new PublicKey(`key-${i}`, { publicKey }));
    }, { url: emulator.url, accountId: TEST_ACCOUNT, apiKey });
  });

  afterAll(async () => {
    test?.dispose();
    await emulator?.close();
  });

  it(`up of ${KEYS} keys on ${CREDITS_PER_WINDOW} credits per ${WINDOW_SECONDS} s is paced or stops clearly, and state and service agree`, async () => {
    const started = Date.now();
    const outcome = await test.stack.up({ parallel: 10 }).then(
      () => "completed",
      (error: unknown) => String((error as Error).message),
    );
    const seconds = (Date.now() - started) / 1000;
    const requests: Array<{ status: number }> = await control("requests");
    const refused = requests.filter((r) => r.status === 429).length;

    const onService: Array<{ id: number }> = (await control("state")).accounts[0].publicKeys ?? [];
    const inState: string[] = ((await test.stack.exportStack()).deployment.resources ?? [])
      .filter((r: any) => r.type === "pulumi-nodejs:dynamic/etl:PublicKey")
      .map((r: any): string => String(r.id));
    const serviceIds = onService.map((k) => String(k.id));
    console.log(
      `rate limit: up ${outcome === "completed" ? "completed" : "stopped"} after ${seconds.toFixed(1)} s; ` +
        `${serviceIds.length} keys on the service, ${inState.length} in state, ${requests.length} API requests, ${refused} answered 429`,
    );

    if (outcome !== "completed") {
      const message = outcome.split("\n").find((line) => /allowance/i.test(line)) ?? outcome;
      console.log(`rate limit message: ${message.trim()}`);
      expect(outcome).toMatch(/allowance/i);
      // When to come back: a time of day, or a duration in seconds, minutes or hours.
      expect(message).toMatch(/\d+ ?(s|sec|seconds?|min|minutes?|h|hours?)\b|\d{1,2}:\d{2}/i);
      expect(outcome).not.toMatch(/\n\s+at /);
      expect(outcome).not.toContain(apiKey);
    }
    expect(serviceIds.filter((id) => !inState.includes(id)), "keys on the service but not in state (orphans)").toEqual([]);
    expect(inState.filter((id) => !serviceIds.includes(id)), "keys in state but not on the service").toEqual([]);
    expect(new Set(inState).size, "one state entry per key").toBe(inState.length);
  });
});
