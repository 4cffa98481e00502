import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Fixtures, type RunningEmulator } from "../../emulator";
import { AREAS } from "../../emulator/areas";
import type { Clock } from "../../emulator/clock";
import { storeFromFixtures, validateFixtures } from "../../emulator/fixtures";
import { advanceLifecycles } from "../../emulator/lifecycle";
import { CLUSTER_SECONDS } from "../../emulator/areas/clusters/lifecycle";
import { CLUSTERS } from "../../emulator/areas/clusters/model";
import { JOB_SECONDS } from "../../emulator/areas/jobs/lifecycle";
import { insertJob, JOBS } from "../../emulator/areas/jobs/model";
import { jobRunOf } from "../../emulator/areas/packages/interface";
import { Store } from "../../emulator/store";
import { ACCOUNT, call, readJson, testFixtures, UNBILLED_ACCOUNT, UNBILLED_KEY, unbilledAccount } from "./helpers";

/** One simulated second is 5 ms: every state lasts long enough to be seen by polling. */
const SPEED = 200;

function fixtures(): Fixtures {
  const [acme] = testFixtures().accounts;
  return {
    accounts: [
      {
        ...acme!,
        clusters: [
          { id: 11, name: "main", nodes: 2 },
          { id: 12, name: "play", type: "sandbox" },
          { id: 13, name: "doomed", nodes: 2 },
          { id: 14, name: "growing", nodes: 1 },
        ],
        packages: [
          { id: 101, name: "rollup", run: { seconds: 100, outputs: [{ name: "orders", records: 1000 }, { name: "rejects", records: 10 }] } },
          { id: 102, name: "broken", run: { seconds: 10, outcome: "failed", error: "Source 'crm': token expired" } },
          { id: 103, name: "endless", run: { seconds: 1_000_000, outputs: [{ name: "stream", records: 1_000_000 }] } },
          { id: 104, name: "short", run: { seconds: 20, outputs: [{ name: "out", records: 50 }] } },
        ],
      },
      unbilledAccount(),
    ],
  };
}

/** Wall-clock milliseconds of a simulated duration at SPEED. */
const wallMs = (seconds: number) => (seconds * 1000) / SPEED;

const CLUSTER_PATH = ["pending", "creating", "available", "idle", "pending_terminate", "terminating", "terminated"];
const JOB_PATH = ["idle", "pending", "queued", "running", "completed"];
const STOP_PATH = ["running", "pending_stoppage", "stopping", "stopped"];

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, fixtures: fixtures(), speed: SPEED, creditsPerHour: 1_000_000 });
});

afterAll(async () => {
  await emulator.close();
});

interface ApiRecord {
  id: number;
  status: string;
  [field: string]: any;
}

async function post(path: string, body: unknown): Promise<ApiRecord> {
  const response = await call(emulator, path, { method: "POST", body });
  expect(response.status).toBe(201);
  return readJson(response);
}

async function read(path: string): Promise<ApiRecord> {
  const response = await call(emulator, path);
  expect(response.status).toBe(200);
  return readJson(response);
}

interface Watched {
  /** Statuses in the order seen, each once per stretch. */
  statuses: string[];
  samples: ApiRecord[];
  last: ApiRecord;
}

/** Polls until `done` holds or the deadline passes; keeps every sample. */
async function watch(path: string, done: (record: ApiRecord) => boolean, timeoutMs = 15_000): Promise<Watched> {
  const samples: ApiRecord[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const record = await read(path);
    samples.push(record);
    if (done(record) || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
  const statuses = samples.map((s) => s.status).filter((status, i, all) => i === 0 || all[i - 1] !== status);
  return { statuses, samples, last: samples.at(-1)! };
}

function expectSubsequence(observed: string[], expected: string[]): void {
  let position = 0;
  for (const status of observed) {
    const found = expected.indexOf(status, position);
    expect(found, `${observed.join(" → ")} is not in the order ${expected.join(" → ")}`).toBeGreaterThanOrEqual(0);
    position = found + 1;
  }
}

const finished = (job: ApiRecord) => ["completed", "failed", "stopped"].includes(job.status);

describe("cluster lifecycle", () => {
  it("goes pending → creating → available", async () => {
    const created = await post("/clusters", { nodes: 1 });
    expect(created.status).toBe("pending");
    const { statuses, last } = await watch(`/clusters/${created.id}`, (c) => c.status === "available");
    expectSubsequence(statuses, CLUSTER_PATH);
    expect(last.status).toBe("available");
    expect(last.available_since >= created.created_at).toBe(true);
  });

  it("goes idle without jobs and terminates itself when asked to", async () => {
    const created = await post("/clusters", { nodes: 1, terminate_on_idle: true, time_to_idle: 300 });
    const { statuses, samples, last } = await watch(`/clusters/${created.id}`, (c) => c.status === "terminated");
    expectSubsequence(statuses, CLUSTER_PATH);
    expect(last.status).toBe("terminated");
    expect(last.terminated_at).not.toBeNull();
    const idle = samples.find((c) => c.status === "idle");
    if (idle !== undefined) expect(idle.idle_since).not.toBeNull();
  });

  it("scales after a change of nodes and is available again", async () => {
    const response = await call(emulator, "/clusters/14", { method: "PUT", body: { nodes: 3 } });
    expect((await readJson(response)).status).toBe("scaling");
    const { statuses, last } = await watch("/clusters/14", (c) => c.status === "available");
    expectSubsequence(statuses, ["scaling", "available"]);
    expect(last.nodes).toBe(3);
  });
});

describe("job lifecycle", () => {
  it("queues while its cluster is created, then runs with rising progress and completes", async () => {
    const cluster = await post("/clusters", { nodes: 2 });
    const job = await post("/jobs", { cluster_id: cluster.id, package_id: 101 });
    expect(job.status).toBe("idle");
    const { statuses, samples, last } = await watch(`/jobs/${job.id}`, finished);
    expectSubsequence(statuses, JOB_PATH);
    expect(last).toMatchObject({ status: "completed", progress: 1, runtime_in_seconds: 100, errors: "", outputs_count: 2 });
    expect(last.outputs.map((o: ApiRecord) => o.records_count)).toEqual([1000, 10]);
    expect(last.completed_at).not.toBeNull();

    const progress = samples.map((s) => s.progress as number);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const running = samples.filter((s) => s.status === "running");
    for (const sample of running) {
      expect(sample.outputs[0].records_count).toBe(Math.round(1000 * sample.progress));
      expect(sample.log_url).toBe(`${emulator.url}/${ACCOUNT}/api/jobs/${job.id}/log`);
    }

    // The log keeps every state, including those passed between two polls.
    const log = await read(`/jobs/${job.id}/log`);
    expect(log.body).toMatch(/requested[\s\S]*Initializing[\s\S]*Running[\s\S]*Progress 50%[\s\S]*Completed: 1010 records written/);
    const clusterReadyAfter = wallMs(CLUSTER_SECONDS.pending + CLUSTER_SECONDS.creating);
    const jobLeavesPendingAfter = wallMs(JOB_SECONDS.idle + JOB_SECONDS.pending);
    if (Date.parse(job.created_at) - Date.parse(cluster.created_at) + jobLeavesPendingAfter < clusterReadyAfter) {
      expect(log.body).toMatch(/Initializing[\s\S]*Waiting for resources[\s\S]*Running/);
    }
    const ready = await read(`/clusters/${cluster.id}`);
    expect(last.started_at).toBe(ready.available_since);
  });

  it("fails with the package's error", async () => {
    const job = await post("/jobs", { cluster_id: 11, package_id: 102 });
    const { statuses, last } = await watch(`/jobs/${job.id}`, finished);
    expectSubsequence(statuses, ["idle", "pending", "running", "failed"]);
    expect(last).toMatchObject({ status: "failed", errors: "Source 'crm': token expired", completed_at: null, outputs: [] });
    expect(last.failed_at).not.toBeNull();
  });

  it("stops on request: pending_stoppage → stopping → stopped", async () => {
    const job = await post("/jobs", { cluster_id: 11, package_id: 103 });
    await watch(`/jobs/${job.id}`, (j) => j.status === "running");
    const response = await call(emulator, `/jobs/${job.id}`, { method: "DELETE" });
    expect(response.status).toBe(200);
    const stopping = await readJson(response);
    expect(stopping.status).toBe("pending_stoppage");
    const { statuses, last } = await watch(`/jobs/${job.id}`, finished);
    expectSubsequence(statuses, STOP_PATH);
    expect(last.status).toBe("stopped");
    expect(last.progress).toBe(stopping.progress);
  });

  it("runs one job at a time on a sandbox: the second waits for the first", async () => {
    const first = await post("/jobs", { cluster_id: 12, package_id: 104 });
    const second = await post("/jobs", { cluster_id: 12, package_id: 104 });
    const watchedSecond = await watch(`/jobs/${second.id}`, finished);
    const done = await read(`/jobs/${first.id}`);
    expect(done.status).toBe("completed");
    expectSubsequence(watchedSecond.statuses, JOB_PATH);
    expect(watchedSecond.last.status).toBe("completed");
    expect(watchedSecond.last.started_at >= done.completed_at).toBe(true);
    // Unless the second request came only after the first job had ended, the second queued.
    if (Date.parse(second.created_at) - Date.parse(first.created_at) < wallMs(20)) {
      expect((await read(`/jobs/${second.id}/log`)).body).toMatch(/Waiting for resources on cluster 'play'/);
    }
  });
});

describe("terminating a cluster", () => {
  it("stops its running job, ends terminated and takes no more jobs", async () => {
    const job = await post("/jobs", { cluster_id: 13, package_id: 103 });
    await watch(`/jobs/${job.id}`, (j) => j.status === "running");
    const response = await call(emulator, "/clusters/13", { method: "DELETE" });
    expect(response.status).toBe(200);
    expect((await readJson(response)).status).toBe("pending_terminate");

    const cluster = await watch("/clusters/13", (c) => c.status === "terminated");
    expectSubsequence(cluster.statuses, CLUSTER_PATH);
    expect(cluster.last.terminated_at).not.toBeNull();
    const stopped = await watch(`/jobs/${job.id}`, finished);
    expect(stopped.last.status).toBe("stopped");

    const refused = await call(emulator, "/jobs", { method: "POST", body: { cluster_id: 13, package_id: 101 } });
    expect(refused.status).toBe(422);
    expect((await readJson(refused)).message).toMatch(/cluster_id 13 names a cluster that is terminated/);
  });
});

describe("billing", () => {
  it("refuses to run jobs for an account without billing information", async () => {
    const response = await call(emulator, "/jobs", {
      method: "POST",
      body: { cluster_id: 81, package_id: 801 },
      key: UNBILLED_KEY,
      account: UNBILLED_ACCOUNT,
    });
    expect(response.status).toBe(402);
    expect(await readJson(response)).toEqual({ message: "Billing information required: add a payment method before running jobs." });
  });
});

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
    expect(at(cluster.terminatedAt)).toBe(
      idleAt + (300 + CLUSTER_SECONDS.pendingTerminate + CLUSTER_SECONDS.terminating) * 1000,
    );
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
