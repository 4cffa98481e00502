import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startTestEmulator, until, type ApiRecord } from "../helpers";
import { after, jobsOf, MINUTE_MS, runEnded, scheduleBody, scheduleFixtures, scheduleServices, soon, type Started } from "./helpers";

/** A schedule's runs: retries of failed jobs, the clusters they use, restarts and fixtures. */

const start = scheduleServices();
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
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
    const cluster = await until(
      () => api.read(`/clusters/${first!.cluster_id}`),
      (c) => c.status === "terminated",
    );
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
    await until(
      () => first.read(`/schedules/${created.id}`),
      (s) => s.execution_count >= 1,
    );
    await first.emulator.close();

    const second = await start({}, { dataDir });
    const seen = await until(
      () => second.read(`/schedules/${created.id}`),
      (s) => s.execution_count >= 3,
    );
    const times = (await jobsOf(second, created.id)).slice(0, 3).map((job) => job.created_at);
    expect(times).toEqual([0, 1, 2].map((k) => after(startAt, k * MINUTE_MS)));
    expect(seen.next_run_at).toBe(after(startAt, seen.execution_count * MINUTE_MS));
  });

  it("seeds schedules from fixtures, with the API's defaults", async () => {
    const api = await start({
      schedules: [
        {
          id: 7,
          name: "seeded",
          status: "enabled",
          startAt: "2099-01-31T00:00:00Z",
          intervalUnit: "months",
          task: { packages: [{ packageId: 101, variables: { a: "'b'" } }] },
        },
      ],
    });
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
