import { afterAll, beforeAll, expect } from "vitest";
import { startEmulator, type Fixtures, type RunningEmulator, type StartEmulatorOptions } from "../../../emulator";
import { ACCOUNT, call, closedAfterEach, DANA_KEY, expectOnlyFields, readJson, startTestEmulator, testFixtures, until, type ApiRecord } from "../helpers";

/**
 * What the schedules' tests share: an account with packages that succeed and fail, small calls,
 * and schedules firing on a fast clock.
 */

/** Every field of a schedule's JSON (facts, "Schedule response fields"). */
export const SCHEDULE_FIELDS = [
  "id",
  "name",
  "description",
  "owner_id",
  "status",
  "start_at",
  "next_run_at",
  "last_run_at",
  "last_run_status",
  "execution_count",
  "interval_amount",
  "interval_unit",
  "overlap",
  "auto_retry",
  "auto_retry_attempts",
  "reuse_cluster_strategy",
  "task",
  "created_at",
  "updated_at",
  "url",
  "html_url",
] as const;

export const TASK_FIELDS = ["nodes", "terminate_on_idle", "time_to_idle", "packages"] as const;

/** A schedule with exactly the documented fields, at its own addresses. */
export function expectScheduleRecord(emulator: RunningEmulator, body: ApiRecord): ApiRecord {
  expectOnlyFields(body, SCHEDULE_FIELDS);
  expectOnlyFields(body.task, TASK_FIELDS);
  expect(body.url).toBe(`${emulator.url}/${ACCOUNT}/api/schedules/${body.id}`);
  expect(body.html_url).toBe(`${emulator.url}/${ACCOUNT}/schedules/${body.id}`);
  return body;
}

type AccountInput = Fixtures["accounts"][number];

/** Packages: 101 completes in 10 s, 102 fails after 5 s, 103 is archived, 104 runs 150 s. */
export function scheduleFixtures(extra: Pick<AccountInput, "clusters" | "schedules"> = {}): Fixtures {
  const [acme, globex] = testFixtures().accounts;
  return {
    accounts: [
      {
        ...acme!,
        packages: [
          { id: 101, name: "orders-rollup", run: { seconds: 10, outputs: [{ name: "orders", records: 10 }] } },
          { id: 102, name: "crm-sync", run: { seconds: 5, outcome: "failed", error: "token expired" } },
          { id: 103, name: "legacy-export", status: "archived" },
          { id: 104, name: "long-load", run: { seconds: 150 } },
        ],
        ...extra,
      },
      {
        ...globex!,
        packages: [{ id: 901, name: "globex-package" }],
        // A ready cluster with a lower id than any of acme's: never picked for acme's runs.
        clusters: [{ id: 5, name: "globex-big", nodes: 10 }],
      },
    ],
  };
}

export interface ScheduleCalls {
  create(body: unknown, key?: string): Promise<ApiRecord>;
  read(path: string, key?: string): Promise<any>;
  send(method: string, path: string, body?: unknown): Promise<ApiRecord>;
}

/** Calls that must succeed, each answering the record. */
export function scheduleCalls(emulator: RunningEmulator): ScheduleCalls {
  return {
    async create(body, key = DANA_KEY) {
      const response = await call(emulator, "/schedules", { method: "POST", body, key });
      expect(response.status, JSON.stringify(await response.clone().json())).toBe(201);
      return readJson(response);
    },
    async read(path, key = DANA_KEY) {
      const response = await call(emulator, path, { key });
      expect(response.status).toBe(200);
      return readJson(response);
    },
    async send(method, path, body) {
      const response = await call(emulator, path, { method, body });
      expect(response.status, JSON.stringify(await response.clone().json())).toBe(200);
      return readJson(response);
    },
  };
}

/** A minimal valid create body, with `fields` added. */
export function scheduleBody(fields: Record<string, unknown> = {}, packages: unknown[] = [{ package_id: 101 }]): Record<string, unknown> {
  return { name: "nightly", task: { packages }, ...fields };
}

/** A start far enough ahead that nothing fires during a test. */
export const FUTURE = "2099-01-01T00:00:00.000Z";

/** What a file of schedule tests shares: one emulator of the schedule fixtures and its calls. */
export interface ScheduleSuite {
  emulator: RunningEmulator;
  api: ScheduleCalls;
  /** Checks a schedule record's fields and answers it. */
  expectSchedule(body: ApiRecord): ApiRecord;
  /** A `POST /schedules` of any body, as the caller's default user. */
  post(body: unknown): Promise<Response>;
}

/** Starts the emulator before the file's tests and closes it after them. */
export function scheduleSuite(): ScheduleSuite {
  const suite: ScheduleSuite = {
    emulator: undefined as unknown as RunningEmulator,
    api: undefined as unknown as ScheduleCalls,
    expectSchedule: (body) => expectScheduleRecord(suite.emulator, body),
    post: (body) => call(suite.emulator, "/schedules", { method: "POST", body }),
  };
  beforeAll(async () => {
    suite.emulator = await startTestEmulator(scheduleFixtures());
    suite.api = scheduleCalls(suite.emulator);
  });
  afterAll(() => suite.emulator.close());
  return suite;
}

// ---- schedules firing on the service's clock

/**
 * What the tests of schedules firing on the service's clock share. At SPEED a simulated minute
 * is 100 ms, so a schedule of one minute fires ten times a second; run times are stored to the
 * millisecond and applied at their own time, so each can be checked exactly however late the
 * test looks.
 */

export const SPEED = 600;
export const MINUTE_MS = 60_000 / SPEED;

/** Starts a fresh emulator for each test, so runs never compete for another test's clusters. */
export function scheduleServices() {
  const track = closedAfterEach();
  return async (extra: Parameters<typeof scheduleFixtures>[0] = {}, options: StartEmulatorOptions = {}) => {
    const clusters = extra.clusters ?? [{ id: 11, name: "main", nodes: 2 }];
    const emulator = track(
      await startEmulator({ port: 0, speed: SPEED, creditsPerHour: 1_000_000, fixtures: scheduleFixtures({ ...extra, clusters }), ...options }),
    );
    return { emulator, ...scheduleCalls(emulator) };
  };
}

export type Started = Awaited<ReturnType<ReturnType<typeof scheduleServices>>>;

/**
 * A start time a little ahead, on a whole millisecond, as the service stores it: by default far
 * enough ahead (a second) that the create reaches the service before it, on a loaded machine too.
 */
export function soon(ms = 1000): string {
  return new Date(Date.now() + ms).toISOString();
}

export const after = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();

export async function jobsOf(api: Started, scheduleId: number): Promise<ApiRecord[]> {
  const jobs = (await api.read("/jobs?limit=100&direction=asc")) as ApiRecord[];
  return jobs.filter((job) => job.creator.type === "Schedule" && job.creator.id === scheduleId);
}

export async function runEnded(api: Started, id: number): Promise<ApiRecord> {
  return until(
    () => api.read(`/schedules/${id}`),
    (s) => s.last_run_status !== null && s.last_run_status !== "running",
  );
}
