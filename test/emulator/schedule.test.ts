import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startEmulator, type StartEmulatorOptions } from "../../emulator";
import { ACCOUNT, call, closedAfterEach, expectError, readJson, startTestEmulator, UNBILLED_ACCOUNT, UNBILLED_KEY, unbilledAccount } from "./helpers";
import { scheduleBody, scheduleCalls, scheduleFixtures, until, type ApiRecord } from "./schedule-support";

/**
 * Schedules firing on the service's clock. At SPEED a simulated minute is 100 ms, so a schedule
 * of one minute fires ten times a second; run times are stored to the millisecond and applied at
 * their own time, so each can be checked exactly however late the test looks.
 */

const SPEED = 600;
const MINUTE_MS = 60_000 / SPEED;

const track = closedAfterEach();
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh emulator for each test, so runs never compete for another test's clusters. */
async function start(extra: Parameters<typeof scheduleFixtures>[0] = {}, options: StartEmulatorOptions = {}) {
  const clusters = extra.clusters ?? [{ id: 11, name: "main", nodes: 2 }];
  const emulator = track(await startEmulator({ port: 0, speed: SPEED, creditsPerHour: 1_000_000, fixtures: scheduleFixtures({ ...extra, clusters }), ...options }));
  return { emulator, ...scheduleCalls(emulator) };
}

type Started = Awaited<ReturnType<typeof start>>;

/** A start time a little ahead, on a whole millisecond, as the service stores it. */
function soon(ms = 200): string {
  return new Date(Date.now() + ms).toISOString();
}

const after = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();

async function jobsOf(api: Started, scheduleId: number): Promise<ApiRecord[]> {
  const jobs = (await api.read("/jobs?limit=100&direction=asc")) as ApiRecord[];
  return jobs.filter((job) => job.creator.type === "Schedule" && job.creator.id === scheduleId);
}

async function runEnded(api: Started, id: number): Promise<ApiRecord> {
  return until(() => api.read(`/schedules/${id}`), (s) => s.last_run_status !== null && s.last_run_status !== "running");
}

describe("an enabled schedule", () => {
  it("fires at start_at and every interval after it, each run a job started by the schedule", async () => {
    const api = await start();
    const startAt = soon();
    const created = await api.create(scheduleBody({ name: "every minute", status: "enabled", start_at: startAt, interval_unit: "minutes" }));
    expect(created).toMatchObject({ next_run_at: startAt, execution_count: 0, last_run_at: null });

    await until(() => api.read(`/schedules/${created.id}`), (s) => s.execution_count >= 3);
    const stopped = await api.send("PUT", `/schedules/${created.id}`, { status: "disabled" });
    const runs = stopped.execution_count as number;
    const jobs = await jobsOf(api, created.id);
    expect(jobs.map((job) => job.created_at)).toEqual([...Array(runs).keys()].map((k) => after(startAt, k * MINUTE_MS)));
    expect(stopped.last_run_at).toBe(after(startAt, (runs - 1) * MINUTE_MS));
    expect(stopped.next_run_at).toBeNull();
    for (const job of jobs) {
      expect(job).toMatchObject({ package_id: 101, cluster_id: 11, attempts: 0, master_auto_retry_attempts: null });
      expect(job.creator).toEqual({
        type: "Schedule",
        id: created.id,
        display_name: "every minute",
        url: `${api.emulator.url}/${ACCOUNT}/api/schedules/${created.id}`,
        html_url: `${api.emulator.url}/${ACCOUNT}/schedules/${created.id}`,
      });
    }
  });

  it("shows the next run time while enabled, one interval after the last run", async () => {
    const api = await start();
    const startAt = soon();
    const created = await api.create(scheduleBody({ status: "enabled", start_at: startAt, interval_unit: "minutes", interval_amount: 2 }));
    const seen = await until(() => api.read(`/schedules/${created.id}`), (s) => s.execution_count >= 1);
    const runs = seen.execution_count as number;
    expect(seen.last_run_at).toBe(after(startAt, (runs - 1) * 2 * MINUTE_MS));
    expect(seen.next_run_at).toBe(after(startAt, runs * 2 * MINUTE_MS));
    const done = await until(() => api.read(`/schedules/${created.id}`), (s) => s.last_run_status === "completed");
    expect(done.last_run_status).toBe("completed");
  });

  it("skips run times while the previous run goes when overlap is off, and not when it is on", async () => {
    const api = await start({ clusters: [{ id: 11, name: "main", nodes: 10 }] });
    const startAt = soon();
    // Package 104 runs 150 simulated seconds: two and a half intervals, plus 3 s to start.
    const body = (overlap: boolean) => scheduleBody({ status: "enabled", start_at: startAt, interval_unit: "minutes", overlap }, [{ package_id: 104 }]);
    const strict = await api.create(body(false));
    const relaxed = await api.create(body(true));
    const seen = await until(() => api.read(`/schedules/${strict.id}`), (s) => s.execution_count >= 2);
    await api.send("PUT", `/schedules/${strict.id}`, { status: "disabled" });
    await api.send("PUT", `/schedules/${relaxed.id}`, { status: "disabled" });
    expect(seen.last_run_at).toBe(after(startAt, 3 * MINUTE_MS));
    expect((await jobsOf(api, strict.id)).slice(0, 2).map((job) => job.created_at)).toEqual([startAt, after(startAt, 3 * MINUTE_MS)]);
    const relaxedTimes = (await jobsOf(api, relaxed.id)).slice(0, 4).map((job) => job.created_at);
    expect(relaxedTimes).toEqual([0, 1, 2, 3].map((k) => after(startAt, k * MINUTE_MS)));
  });

  it("locks start_at after a timed run", async () => {
    const api = await start();
    const created = await api.create(scheduleBody({ status: "enabled", start_at: soon(50), interval_unit: "weeks" }));
    await until(() => api.read(`/schedules/${created.id}`), (s) => s.execution_count === 1);
    const refused = await call(api.emulator, `/schedules/${created.id}`, { method: "PUT", body: { start_at: soon(10_000) } });
    await expectError(refused, 422, "start_at cannot be changed once the schedule has run (execution_count is 1)");
  });
});

describe("a schedule that must not fire", () => {
  it("never fires while disabled, the default status", async () => {
    const api = await start();
    const created = await api.create(scheduleBody({ start_at: soon(0), interval_unit: "minutes" }));
    await new Promise((resolve) => setTimeout(resolve, 4 * MINUTE_MS));
    const later = await api.read(`/schedules/${created.id}`);
    expect(later).toMatchObject({ status: "disabled", execution_count: 0, next_run_at: null, last_run_at: null });
    expect(await jobsOf(api, created.id)).toEqual([]);
  });

  it("stops firing once disabled or deleted", async () => {
    const api = await start();
    const body = scheduleBody({ status: "enabled", start_at: soon(0), interval_unit: "minutes" });
    const [disabled, deleted] = [await api.create(body), await api.create(body)];
    await until(() => api.read(`/schedules/${deleted.id}`), (s) => s.execution_count >= 1);
    const count = (await api.send("PUT", `/schedules/${disabled.id}`, { status: "disabled" })).execution_count;
    const jobsWhenDeleted = (await jobsOf(api, deleted.id)).length;
    await api.send("DELETE", `/schedules/${deleted.id}`);
    await new Promise((resolve) => setTimeout(resolve, 3 * MINUTE_MS));
    expect((await api.read(`/schedules/${disabled.id}`)).execution_count).toBe(count);
    expect(await jobsOf(api, disabled.id)).toHaveLength(count);
    expect(await jobsOf(api, deleted.id)).toHaveLength(jobsWhenDeleted);
  });
});

describe("an account without billing information", () => {
  it("runs no job: a timed run counts and fails at once, and run now answers 402", async () => {
    const unbilled = { ...unbilledAccount(), schedules: [{ id: 70, status: "enabled" as const, intervalUnit: "minutes" as const, task: { packages: [{ packageId: 801 }] } }] };
    const fixtures = scheduleFixtures();
    const emulator = track(await startEmulator({ port: 0, speed: SPEED, fixtures: { accounts: [...fixtures.accounts, unbilled] } }));
    const asUnbilled = { key: UNBILLED_KEY, account: UNBILLED_ACCOUNT };
    const read = async (): Promise<ApiRecord> => readJson(await call(emulator, "/schedules/70", asUnbilled));
    const ran = await until(read, (s) => s.execution_count >= 1);
    expect(ran.last_run_status).toBe("failed");
    expect(await readJson(await call(emulator, "/jobs", asUnbilled))).toEqual([]);
    await expectError(await call(emulator, "/schedules/70/run", { ...asUnbilled, method: "POST" }), 402, /^Billing information required/);
  });
});

describe("auto retry", () => {
  it("runs a failed job again up to auto_retry_attempts, each attempt when the last one failed", async () => {
    const api = await start();
    const created = await api.create(scheduleBody({ auto_retry: true, auto_retry_attempts: 2 }, [{ package_id: 102 }]));
    await api.send("POST", `/schedules/${created.id}/run`);
    const ended = await runEnded(api, created.id);
    expect(ended).toMatchObject({ last_run_status: "failed", execution_count: 1 });
    const jobs = await jobsOf(api, created.id);
    expect(jobs.map((job) => [job.attempts, job.master_auto_retry_attempts, job.status])).toEqual([
      [0, 2, "failed"],
      [1, 2, "failed"],
      [2, 2, "failed"],
    ]);
    expect(jobs[1]!.created_at).toBe(jobs[0]!.failed_at);
    expect(jobs[2]!.created_at).toBe(jobs[1]!.failed_at);
  });

  it("does not retry without auto_retry, and a run of jobs that complete ends completed", async () => {
    const api = await start();
    const failing = await api.create(scheduleBody({}, [{ package_id: 102 }]));
    const passing = await api.create(scheduleBody({ auto_retry: true }, [{ package_id: 101 }, { package_id: 101 }]));
    await api.send("POST", `/schedules/${failing.id}/run`);
    await api.send("POST", `/schedules/${passing.id}/run`);
    expect((await runEnded(api, failing.id)).last_run_status).toBe("failed");
    expect((await jobsOf(api, failing.id)).map((job) => [job.attempts, job.master_auto_retry_attempts])).toEqual([[0, null]]);
    expect((await runEnded(api, passing.id)).last_run_status).toBe("completed");
    expect((await jobsOf(api, passing.id)).map((job) => [job.attempts, job.master_auto_retry_attempts, job.status])).toEqual([
      [0, 3, "completed"],
      [0, 3, "completed"],
    ]);
  });
});

describe("reuse_cluster_strategy", () => {
  async function runTwice(api: Started, schedule: ApiRecord): Promise<ApiRecord[]> {
    for (let run = 1; run <= 2; run++) {
      await api.send("POST", `/schedules/${schedule.id}/run`);
      await runEnded(api, schedule.id);
    }
    return jobsOf(api, schedule.id);
  }

  it("any: a ready cluster of the account with enough nodes, else a new one from the task", async () => {
    // globex's cluster 5 is ready, bigger and older than acme's, and never used for acme.
    const api = await start();
    const fits = await api.create(scheduleBody({ task: { nodes: 2, packages: [{ package_id: 101 }] } }));
    const tooBig = await api.create(scheduleBody({ task: { nodes: 3, terminate_on_idle: false, time_to_idle: 900, packages: [{ package_id: 101 }] } }));
    await api.send("POST", `/schedules/${fits.id}/run`);
    await api.send("POST", `/schedules/${tooBig.id}/run`);
    await runEnded(api, fits.id);
    await runEnded(api, tooBig.id);
    expect((await jobsOf(api, fits.id))[0]!.cluster_id).toBe(11);
    const job = (await jobsOf(api, tooBig.id))[0]!;
    expect(job.cluster_id).not.toBe(11);
    expect(job.cluster_id).not.toBe(5);
    const log = (await api.read(`/jobs/${job.id}/log`)).body as string;
    expect(log).toMatch(/Waiting for resources[\s\S]*Running/);
    const cluster = await api.read(`/clusters/${job.cluster_id}`);
    expect(cluster).toMatchObject({ nodes: 3, terminate_on_idle: false, time_to_idle: 900, name: `schedule-${tooBig.id}-run-1`, owner_id: 1 });
  });

  it("self: a cluster this schedule created, never another", async () => {
    const api = await start();
    const schedule = await api.create(scheduleBody({ reuse_cluster_strategy: "self", task: { nodes: 1, packages: [{ package_id: 101 }] } }));
    const [first, second] = await runTwice(api, schedule);
    expect(first!.cluster_id).not.toBe(11);
    expect(second!.cluster_id).toBe(first!.cluster_id);
  });

  it("none: a new cluster for every run, which terminates itself when idle", async () => {
    const api = await start();
    const schedule = await api.create(scheduleBody({ reuse_cluster_strategy: "none", task: { nodes: 1, time_to_idle: 60, packages: [{ package_id: 101 }] } }));
    const [first, second] = await runTwice(api, schedule);
    expect(new Set([first!.cluster_id, second!.cluster_id, 11]).size).toBe(3);
    const cluster = await until(() => api.read(`/clusters/${first!.cluster_id}`), (c) => c.status === "terminated");
    expect(cluster.terminate_on_idle).toBe(true);
  });
});

describe("schedules across restarts and in fixtures", () => {
  it("keeps firing on the same times after a restart with --data", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "etl-schedules-"));
    dirs.push(dataDir);
    const first = await start({}, { dataDir });
    const startAt = soon();
    const created = await first.create(scheduleBody({ status: "enabled", start_at: startAt, interval_unit: "minutes" }));
    await until(() => first.read(`/schedules/${created.id}`), (s) => s.execution_count >= 1);
    await first.emulator.close();

    const second = await start({}, { dataDir });
    const seen = await until(() => second.read(`/schedules/${created.id}`), (s) => s.execution_count >= 3);
    const times = (await jobsOf(second, created.id)).slice(0, 3).map((job) => job.created_at);
    expect(times).toEqual([0, 1, 2].map((k) => after(startAt, k * MINUTE_MS)));
    expect(seen.next_run_at).toBe(after(startAt, seen.execution_count * MINUTE_MS));
  });

  it("seeds schedules from fixtures, with the API's defaults", async () => {
    const api = await start({ schedules: [{ id: 7, name: "seeded", status: "enabled", startAt: "2099-01-31T00:00:00Z", intervalUnit: "months", task: { packages: [{ packageId: 101, variables: { a: "'b'" } }] } }] });
    expect(await api.read("/schedules/7")).toMatchObject({
      name: "seeded",
      status: "enabled",
      next_run_at: "2099-01-31T00:00:00.000Z",
      interval_unit: "months",
      overlap: true,
      owner_id: 1,
      task: { nodes: 2, terminate_on_idle: true, time_to_idle: 60, packages: [{ package_id: "101", variables: { a: "'b'" } }] },
    });
  });

  it.each([
    [999, /schedules\[0\]\.task\.packages\[0\]\.packageId: no package 999 in this account/],
    [103, /schedules\[0\]\.task\.packages\[0\]\.packageId: package 103 is archived/],
    [901, /schedules\[0\]\.task\.packages\[0\]\.packageId: no package 901 in this account/],
  ])("refuses fixtures whose schedule runs package %i", async (packageId, message) => {
    await expect(startTestEmulator(scheduleFixtures({ schedules: [{ name: "bad", task: { packages: [{ packageId }] } }] }))).rejects.toThrow(message);
  });
});
