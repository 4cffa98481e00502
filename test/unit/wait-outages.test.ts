/**
 * A wait rides out an outage for the whole retry budget, on a simulated clock: reads that fail
 * for want of the service are tried again until the outage has lasted the budget, counted from
 * the first read that failed (or from when the client already found the address unreachable).
 */
import { describe, expect, it } from "vitest";
import { ConnectionError, ServerError, UnreachableError, ValidationError, type EtlApiError } from "../../provider/client/errors";
import { pollUntil, WaitInterruptedError } from "../../provider/resources/shared/wait";
import { isOutcomeUnknown } from "../../provider/resources/shared/reconcile";

const request = { method: "GET", url: "http://service.test/acme/api/deliveries/12", headers: {} };
const refused = (forMs = 0) => new UnreachableError(request, { origin: "http://service.test", detail: "ECONNREFUSED", hint: "refused" }, forMs);
const dropped = () => new ConnectionError({ status: 0, request, serviceMessage: "the connection was dropped" });
const unavailable = () => new ServerError({ status: 503, request, serviceMessage: "down for maintenance" });

/** A service that answers `idle`, then fails every read from `outageFrom` to `outageUntil` (simulated ms), then answers `enabled`. */
function serviceWithOutage(outageFrom: number, outageUntil: number, failure: () => EtlApiError) {
  let now = 0;
  let reads = 0;
  let firstFailure: number | undefined;
  return {
    now: () => now,
    sleep: async (ms: number) => void (now += ms),
    reads: () => reads,
    firstFailure: () => firstFailure,
    read: async () => {
      reads++;
      if (now >= outageFrom && now < outageUntil) {
        firstFailure ??= now;
        throw failure();
      }
      return { status: now < outageUntil ? "idle" : "enabled" };
    },
  };
}

function waitFor(service: ReturnType<typeof serviceWithOutage>, outageToleranceMs: number) {
  return pollUntil({ ...service, isDone: (r) => r.status === "enabled", timeoutMs: 3_600_000, outageToleranceMs });
}

describe("a wait during an outage", () => {
  it.each([
    ["refused connections", refused],
    ["dropped connections", dropped],
    ["503s", unavailable],
  ])("shorter than the retry budget (%s) goes on and ends when the object is done", async (_what, failure) => {
    const service = serviceWithOutage(3_000, 63_000, failure);
    const { current } = await waitFor(service, 120_000);
    expect(current).toEqual({ status: "enabled" });
    expect(service.now()).toBeGreaterThanOrEqual(63_000);
  });

  it("longer than the retry budget ends once it has lasted the budget, with the last reading", async () => {
    const service = serviceWithOutage(3_000, Infinity, dropped);
    const error = await waitFor(service, 120_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitInterruptedError);
    expect((error as WaitInterruptedError<unknown>).last).toEqual({ status: "idle" });
    expect((error as WaitInterruptedError<unknown>).cause).toBeInstanceOf(ConnectionError);
    expect(service.now() - service.firstFailure()!).toBe(120_000);
  });

  it("counts the time the client already spent finding the address unreachable", async () => {
    const service = serviceWithOutage(0, Infinity, () => refused(120_000));
    const error = await waitFor(service, 120_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitInterruptedError);
    expect(service.reads()).toBe(1);
  });

  it("ends at once on a failure that waiting cannot mend", async () => {
    const service = serviceWithOutage(0, Infinity, () => new ValidationError({ status: 422, request, serviceMessage: "no" }));
    await expect(waitFor(service, 120_000)).rejects.toBeInstanceOf(WaitInterruptedError);
    expect(service.reads()).toBe(1);
  });

  it("with no tolerance (etl:maxRetries 0) ends at the first failed read", async () => {
    const service = serviceWithOutage(0, Infinity, dropped);
    await expect(waitFor(service, 0)).rejects.toBeInstanceOf(WaitInterruptedError);
    expect(service.reads()).toBe(1);
  });
});

describe("a create that never left", () => {
  it("is no unknown outcome: nothing is looked for", () => {
    expect(isOutcomeUnknown(refused(120_000))).toBe(false);
    expect(isOutcomeUnknown(dropped())).toBe(true);
  });
});
