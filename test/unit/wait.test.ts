/**
 * Polling with a simulated clock: the backoff and its cap, aiming at an expected end, and the
 * timeout, all without a real delay; a wait cut short by a cancellation or a failed read, and
 * the failure that keeps the object it waited for.
 */
import { describe, expect, it } from "vitest";
import { ConnectionError } from "../../provider/client/errors";
import { withCause } from "../../provider/client/http";
import { keepingObject, ResourceFailure, waitFailureOf } from "../../provider/resources/shared/failures";
import { BACKOFF, nextDelayMs, pollUntil, WaitInterruptedError, WaitTimeoutError, type PollOptions } from "../../provider/resources/shared/wait";

/** A clock that only moves when the poller sleeps, and a record of every sleep. */
function simulatedTime() {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
    advance: (ms: number) => void (now += ms),
  };
}

interface Reading {
  poll: number;
  at: number;
  progress?: number;
}

/** Reads that record when they happened; done once `isDone` says so. */
function readings(time: ReturnType<typeof simulatedTime>, progressAt?: (at: number) => number) {
  let poll = 0;
  return async (): Promise<Reading> => ({ poll: ++poll, at: time.now(), progress: progressAt?.(time.now()) });
}

function options(time: ReturnType<typeof simulatedTime>, overrides: Partial<PollOptions<Reading>>): PollOptions<Reading> {
  return { read: readings(time), isDone: () => false, timeoutMs: 3_600_000, sleep: time.sleep, now: time.now, outageToleranceMs: 120_000, ...overrides };
}

describe("pollUntil", () => {
  it("returns at once, without sleeping, when the first read is done", async () => {
    const time = simulatedTime();
    const result = await pollUntil(options(time, { isDone: () => true }));
    expect(result).toEqual({ current: { poll: 1, at: 0 }, polls: 1 });
    expect(time.sleeps).toEqual([]);
  });

  it("backs off by a factor of 1.6 from 1 s up to the 30 s cap", async () => {
    const time = simulatedTime();
    const result = await pollUntil(options(time, { isDone: (r) => r.poll === 12 }));
    expect(result.polls).toBe(12);
    expect(time.sleeps.map(Math.round)).toEqual([1000, 1600, 2560, 4096, 6554, 10486, 16777, 26844, 30000, 30000, 30000]);
    expect(BACKOFF).toEqual({ firstDelayMs: 1_000, maxDelayMs: 30_000, factor: 1.6 });
  });

  it("honours its own first delay and cap", async () => {
    const time = simulatedTime();
    await pollUntil(options(time, { isDone: (r) => r.poll === 5, firstDelayMs: 100, maxDelayMs: 200 }));
    expect(time.sleeps.map(Math.round)).toEqual([100, 160, 200, 200]);
  });

  it("aims the next poll just past the expected end instead of backing off", async () => {
    const time = simulatedTime();
    const result = await pollUntil(
      options(time, {
        isDone: (r) => r.at >= 60_000,
        expectedRemainingMs: (_r, elapsed) => Math.max(0, 60_000 - elapsed),
      }),
    );
    // After the first 1 s: 59 s remain, plus the smallest margin of 250 ms.
    expect(time.sleeps).toEqual([1000, 59_250]);
    expect(result).toMatchObject({ polls: 3, current: { at: 60_250 } });
  });

  it("widens the margin with the time already waited, and never aims further than four caps", () => {
    expect(nextDelayMs(1000, 5_000, 30_000, 1_000)).toBe(5_250);
    expect(nextDelayMs(1000, 5_000, 30_000, 100_000)).toBe(6_000);
    expect(nextDelayMs(1000, 10_000_000, 30_000, 1_000)).toBe(120_000);
  });

  it("falls back to backoff when the expected end is unknown or nonsense", () => {
    for (const expected of [undefined, Number.NaN, Number.POSITIVE_INFINITY, -5]) {
      expect(nextDelayMs(1000, expected, 30_000, 1_000)).toBe(1600);
    }
    expect(nextDelayMs(25_000, undefined, 30_000, 1_000)).toBe(30_000);
  });

  it("reports progress after each read that does not end the wait", async () => {
    const time = simulatedTime();
    const seen: number[] = [];
    await pollUntil(options(time, { isDone: (r) => r.poll === 4, onProgress: (r) => seen.push(r.poll) }));
    expect(seen).toEqual([1, 2, 3]);
  });

  it("gives up at the deadline with the last value read and the number of reads", async () => {
    const time = simulatedTime();
    const error = await pollUntil(options(time, { timeoutMs: 5_000 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    const timeout = error as WaitTimeoutError<Reading>;
    expect(timeout.message).toBe("gave up waiting after 5 s");
    // The last sleep is cut to the deadline, and one more read happens there.
    expect(time.sleeps).toEqual([1000, 1600, 2400]);
    expect(timeout.polls).toBe(4);
    expect(timeout.last).toEqual({ poll: 4, at: 5_000 });
  });

  it("counts time spent reading against the deadline", async () => {
    const time = simulatedTime();
    const slowRead = async (): Promise<Reading> => {
      time.advance(3_000);
      return { poll: 0, at: time.now() };
    };
    const error = await pollUntil(options(time, { read: slowRead, timeoutMs: 5_000 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(time.sleeps).toEqual([1000]);
    expect((error as WaitTimeoutError<Reading>).polls).toBe(2);
  });

  it("simulates hours of waiting in no real time", async () => {
    // Hours of real waiting would outlast the test's timeout: the waits are the simulated clock's.
    const time = simulatedTime();
    const result = await pollUntil(options(time, { isDone: (r) => r.at >= 4 * 3_600_000, timeoutMs: 5 * 3_600_000 }));
    expect(time.now()).toBeGreaterThanOrEqual(4 * 3_600_000);
    expect(result.polls).toBeGreaterThan(400);
  });
});

describe("a wait that ends early", () => {
  it("ends at once when cancelled, carrying the latest reading", async () => {
    const controller = new AbortController();
    let reads = 0;
    const waiting = pollUntil({
      read: async () => ({ status: "creating", read: ++reads }),
      isDone: () => false,
      timeoutMs: 600_000,
      signal: controller.signal,
      outageToleranceMs: 120_000,
    });
    setTimeout(() => controller.abort(new Error("the deployment was cancelled")), 50);
    const error = await waiting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitInterruptedError);
    expect((error as WaitInterruptedError<{ read: number }>).last).toEqual({ status: "creating", read: 1 });
    expect(((error as WaitInterruptedError<unknown>).cause as Error).message).toBe("the deployment was cancelled");
  });

  it("turns a failed read into an interruption carrying the reading before it", async () => {
    const readings = [{ status: "pending" }, { status: "creating" }];
    const failure = new Error("GET /clusters/7 failed with no response");
    const error = await pollUntil({
      read: async () => {
        const next = readings.shift();
        if (next === undefined) throw failure;
        return next;
      },
      isDone: () => false,
      timeoutMs: 600_000,
      sleep: async () => undefined,
      outageToleranceMs: 120_000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitInterruptedError);
    expect((error as WaitInterruptedError<unknown>).last).toEqual({ status: "creating" });
    expect((error as WaitInterruptedError<unknown>).cause).toBe(failure);
  });
});

describe("keepingObject", () => {
  const running = () => new AbortController().signal;

  it("keeps the object with its id and last properties, saying what ended the wait and what comes next", () => {
    const ended = new WaitInterruptedError({ status: "creating" }, 3, new Error("GET /clusters/7 failed with no response: could not reach it (ECONNREFUSED)"));
    const failure = keepingObject(
      ended,
      {
        what: "cluster 7 (it is creating)",
        id: "7",
        properties: { status: "creating" },
        next: "the next `pulumi up` waits for it again",
      },
      running(),
    );
    expect(failure).toBeInstanceOf(ResourceFailure);
    expect(failure).toMatchObject({ id: "7", properties: { status: "creating" }, reasons: [failure.message] });
    expect(failure.message).toBe(
      "waiting for cluster 7 (it is creating) failed: GET /clusters/7 failed with no response: could not reach it (ECONNREFUSED); it stays in the stack and the next `pulumi up` waits for it again",
    );
  });

  it("passes on a failure that keeps the object already", () => {
    const kept = new ResourceFailure("job 4 failed: boom", "4", { status: "failed" });
    expect(keepingObject(kept, { what: "job 4", id: "4", properties: {}, next: "" }, running())).toBe(kept);
  });

  it("says the cancellation's reason, from the signal it is given, and what is left behind", () => {
    const controller = new AbortController();
    controller.abort(new Error("the provider process received SIGTERM"));
    const ended = new WaitInterruptedError({ status: "running" }, 2, controller.signal.reason);
    const kept = {
      what: "job 4 (it is running 40%)",
      id: "4",
      properties: {},
      next: "the next `pulumi up` waits for it again",
      whenCancelled: "the job is left running",
    };
    expect(keepingObject(ended, kept, controller.signal).message).toBe(
      "the provider process received SIGTERM while waiting for job 4 (it is running 40%); the job is left running; it stays in the stack and the next `pulumi up` waits for it again",
    );
    expect(keepingObject(ended, kept, running()).message).toMatch(/^waiting for job 4 \(it is running 40%\) failed: the provider process received SIGTERM;/);
  });
});

describe("waitFailureOf", () => {
  it("says what the API error says, not the bare network failure behind it", () => {
    const request = { method: "DELETE", url: "http://service.test/acme/api/jobs/4", headers: {} };
    const error = withCause(
      new ConnectionError({ status: 0, request, serviceMessage: "could not reach http://service.test (ECONNREFUSED)" }),
      new Error("connect ECONNREFUSED"),
    );
    expect(waitFailureOf(error)).toBe("DELETE /acme/api/jobs/4 failed with no response: could not reach http://service.test (ECONNREFUSED)");
    expect(waitFailureOf(new WaitInterruptedError(undefined, 1, error))).toBe(waitFailureOf(error));
  });
});
