/**
 * The lifecycles advanced on a store directly, on a clock set by hand: the same end state however
 * often they are advanced, after a restart from a snapshot too, and each step timed by the table.
 */
import { describe, expect, it } from "vitest";
import { AREAS } from "../../../emulator/areas";
import type { Clock } from "../../../emulator/clock";
import { storeFromFixtures, validateFixtures } from "../../../emulator/fixtures";
import { advanceLifecycles } from "../../../emulator/lifecycle";
import { CLUSTER_SECONDS } from "../../../emulator/areas/clusters/lifecycle";
import { CLUSTERS } from "../../../emulator/areas/clusters/model";
import { JOB_SECONDS } from "../../../emulator/areas/jobs/lifecycle";
import { insertJob, JOBS } from "../../../emulator/areas/jobs/model";
import { jobRunOf } from "../../../emulator/areas/packages/interface";
import { Store } from "../../../emulator/store";

describe("advancing the store directly", () => {
  const START = Date.parse("2026-01-01T00:00:00.000Z");

  function manualClock(): Clock & { set(ms: number): void } {
    let now = START;
    return { now: () => now, speed: 1, duration: (seconds) => seconds * 1000, set: (ms) => void (now = ms) };
  }

  /** A sandbox running three jobs of different lengths, one of them failing. */
  function busyStore(clock: Clock): Store {
    const store = storeFromFixtures(
      validateFixtures({
        accounts: [
          {
            id: 1,
            uid: "acme",
            users: [{ id: 1, name: "Dana", email: "dana@example.com", apiKey: "k" }],
            clusters: [{ id: 1, name: "sandbox", type: "sandbox", terminateOnIdle: true, timeToIdle: 300 }],
            packages: [
              { id: 1, name: "a", run: { seconds: 7, outputs: [{ name: "o", records: 70 }] } },
              { id: 2, name: "b", run: { seconds: 3, outcome: "failed" } },
            ],
          },
        ],
      }),
      clock,
    );
    for (const packageId of [1, 2, 1]) {
      const run = jobRunOf(store, 1, packageId)!;
      insertJob(store, { accountId: 1, ownerId: 1, clusterId: 1, packageId, run, variables: {}, dynamicVariables: {} }, clock.now());
    }
    return store;
  }

  const lifecycleRows = (store: Store) => ({ clusters: store.list(CLUSTERS), jobs: store.list(JOBS) });
  const END = START + 1_000_000;

  it("reaches the same state whether advanced once or every few milliseconds", () => {
    const onceClock = manualClock();
    const once = busyStore(onceClock);
    onceClock.set(END);
    advanceLifecycles(once);

    const oftenClock = manualClock();
    const often = busyStore(oftenClock);
    for (let t = START; t <= END; t += 997) {
      oftenClock.set(t);
      advanceLifecycles(often);
    }
    oftenClock.set(END);
    advanceLifecycles(often);

    expect(lifecycleRows(often)).toEqual(lifecycleRows(once));
    expect(once.list(JOBS).map((job) => job.status)).toEqual(["completed", "failed", "completed"]);
    expect(once.list(CLUSTERS)[0]!.status).toBe("terminated");
  });

  it("carries on after a restart from a snapshot as if it had never stopped", () => {
    const straightClock = manualClock();
    const straight = busyStore(straightClock);
    straightClock.set(END);
    advanceLifecycles(straight);

    const clock = manualClock();
    const before = busyStore(clock);
    clock.set(START + 5_500);
    advanceLifecycles(before);
    const restored = Store.fromSnapshot(JSON.parse(JSON.stringify(before.snapshot())), clock, AREAS);
    clock.set(END);
    advanceLifecycles(restored);

    expect(lifecycleRows(restored)).toEqual(lifecycleRows(straight));
  });

  it("times each step with the table of durations", () => {
    const clock = manualClock();
    const store = busyStore(clock);
    clock.set(END);
    advanceLifecycles(store);
    const [first, second, third] = store.list(JOBS);
    const at = (iso: string | null) => Date.parse(iso!) - START;
    const startsAfter = (JOB_SECONDS.idle + JOB_SECONDS.pending) * 1000;
    expect(at(first!.startedAt)).toBe(startsAfter);
    expect(at(first!.completedAt)).toBe(startsAfter + 7000);
    // The sandbox runs one job at a time: each starts when the one before it ends.
    expect(second!.history.map((entry) => entry.status)).toEqual(["idle", "pending", "queued", "running", "failed"]);
    expect(at(second!.startedAt)).toBe(at(first!.completedAt));
    expect(at(third!.startedAt)).toBe(at(second!.failedAt));
    // Idle a while after its last job, then terminated once idle for its time_to_idle.
    const cluster = store.list(CLUSTERS)[0]!;
    const idleAt = at(third!.completedAt) + CLUSTER_SECONDS.idleAfter * 1000;
    expect(at(cluster.terminatedAt)).toBe(idleAt + (300 + CLUSTER_SECONDS.pendingTerminate + CLUSTER_SECONDS.terminating) * 1000);
  });

  it("changes nothing when nothing is due", () => {
    const clock = manualClock();
    const store = busyStore(clock);
    clock.set(START + 4_000);
    advanceLifecycles(store);
    const changes = store.changes;
    for (let i = 0; i < 1_000; i++) advanceLifecycles(store);
    expect(store.changes).toBe(changes);
  });
});
