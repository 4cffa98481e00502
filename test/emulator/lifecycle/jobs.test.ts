/** Jobs' lifecycles on the emulator, seen by polling: queued, run, completed, failed, stopped, and refused without billing. */
import { describe, expect, it } from "vitest";
import { CLUSTER_SECONDS } from "../../../emulator/areas/clusters/lifecycle";
import { JOB_SECONDS } from "../../../emulator/areas/jobs/lifecycle";
import { ACCOUNT, call, readJson, UNBILLED_ACCOUNT, UNBILLED_KEY } from "../helpers";
import { expectSubsequence, finished, JOB_PATH, STOP_PATH, useLifecycleService, wallMs, type ApiRecord } from "./helpers";

const service = useLifecycleService();
const { post, read, watch } = service;

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
      expect(sample.log_url).toBe(`${service.emulator.url}/${ACCOUNT}/api/jobs/${job.id}/log`);
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
    const response = await call(service.emulator, `/jobs/${job.id}`, { method: "DELETE" });
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

describe("billing", () => {
  it("refuses to run jobs for an account without billing information", async () => {
    const response = await call(service.emulator, "/jobs", {
      method: "POST",
      body: { cluster_id: 81, package_id: 801 },
      key: UNBILLED_KEY,
      account: UNBILLED_ACCOUNT,
    });
    expect(response.status).toBe(402);
    expect(await readJson(response)).toEqual({ message: "Billing information required: add a payment method before running jobs." });
  });
});
