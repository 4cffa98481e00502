/**
 * What the lifecycle files share: an account whose clusters and packages take every path, a
 * emulator fast enough that polling sees each status, and polling that keeps what it saw.
 */
import { afterAll, beforeAll, expect } from "vitest";
import { startEmulator, type Fixtures, type RunningEmulator } from "../../../emulator";
import { call, readJson, testFixtures, unbilledAccount } from "../helpers";

/** One simulated second is 5 ms: every state lasts long enough to be seen by polling. */
export const SPEED = 200;

function lifecycleFixtures(): Fixtures {
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
          {
            id: 101,
            name: "rollup",
            run: {
              seconds: 100,
              outputs: [
                { name: "orders", records: 1000 },
                { name: "rejects", records: 10 },
              ],
            },
          },
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
export const wallMs = (seconds: number) => (seconds * 1000) / SPEED;

export const CLUSTER_PATH = ["pending", "creating", "available", "idle", "pending_terminate", "terminating", "terminated"];
export const JOB_PATH = ["idle", "pending", "queued", "running", "completed"];
export const STOP_PATH = ["running", "pending_stoppage", "stopping", "stopped"];

export interface ApiRecord {
  id: number;
  status: string;
  [field: string]: any;
}

export interface Watched {
  /** Statuses in the order seen, each once per stretch. */
  statuses: string[];
  samples: ApiRecord[];
  last: ApiRecord;
}

/** Polls until `done` holds or the deadline passes; keeps every sample. */
async function watchOn(emulator: RunningEmulator, path: string, done: (record: ApiRecord) => boolean, timeoutMs = 15_000): Promise<Watched> {
  const samples: ApiRecord[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const record = await readOn(emulator, path);
    samples.push(record);
    if (done(record) || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
  const statuses = samples.map((s) => s.status).filter((status, i, all) => i === 0 || all[i - 1] !== status);
  return { statuses, samples, last: samples.at(-1)! };
}

export function expectSubsequence(observed: string[], expected: string[]): void {
  let position = 0;
  for (const status of observed) {
    const found = expected.indexOf(status, position);
    expect(found, `${observed.join(" → ")} is not in the order ${expected.join(" → ")}`).toBeGreaterThanOrEqual(0);
    position = found + 1;
  }
}

export const finished = (job: ApiRecord) => ["completed", "failed", "stopped"].includes(job.status);

async function postOn(emulator: RunningEmulator, path: string, body: unknown): Promise<ApiRecord> {
  const response = await call(emulator, path, { method: "POST", body });
  expect(response.status).toBe(201);
  return readJson(response);
}

async function readOn(emulator: RunningEmulator, path: string): Promise<ApiRecord> {
  const response = await call(emulator, path);
  expect(response.status).toBe(200);
  return readJson(response);
}

export interface LifecycleService {
  readonly emulator: RunningEmulator;
  post(path: string, body: unknown): Promise<ApiRecord>;
  read(path: string): Promise<ApiRecord>;
  /** Polls until `done` holds or the deadline passes; keeps every sample. */
  watch(path: string, done: (record: ApiRecord) => boolean, timeoutMs?: number): Promise<Watched>;
}

/** An emulator at SPEED for the file's tests, started before them and closed after. */
export function useLifecycleService(): LifecycleService {
  let emulator: RunningEmulator | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, fixtures: lifecycleFixtures(), speed: SPEED, creditsPerHour: 1_000_000 });
  });
  afterAll(async () => {
    await emulator?.close();
  });
  const started = () => {
    if (emulator === undefined) throw new Error("the lifecycle service starts before the tests");
    return emulator;
  };
  return {
    get emulator() {
      return started();
    },
    post: (path, body) => postOn(started(), path, body),
    read: (path) => readOn(started(), path),
    watch: (path, done, timeoutMs) => watchOn(started(), path, done, timeoutMs),
  };
}
