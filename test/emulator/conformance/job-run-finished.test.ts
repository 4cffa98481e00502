/** Jobs on the emulator with a fast clock: what completed, failed and stopped jobs hold. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator";
import { getJob, isJobFinished, JOB_OUTPUT_FIELDS, jobOutputRecord, runJob, stopJob, type JobRecord } from "../../../provider/api/jobs";
import type { RequestFn } from "../../../provider/client/http";
import { ACCOUNT, call, expectError, readJson } from "../helpers";
import { startJobsEmulator } from "./helpers-jobs";

describe("finished jobs (fast clock)", () => {
  let fast: RunningEmulator;
  let client: RequestFn;

  beforeAll(async () => {
    ({ emulator: fast, dana: client } = await startJobsEmulator(1000));
  });

  afterAll(async () => {
    await fast.close();
  });

  async function until(id: number, done: (job: JobRecord) => boolean): Promise<JobRecord> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const job = await getJob(client, id);
      if (done(job) || Date.now() > deadline) return job;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it("a completed job has its full outputs, each readable at its url", async () => {
    const { id } = await runJob(client, { cluster_id: 11, package_id: 101 });
    const job = await until(id, (j) => isJobFinished(j.status));
    expect(job).toMatchObject({ status: "completed", progress: 1, outputs_count: 2, runtime_in_seconds: 1, errors: "" });
    expect(job.completed_at).not.toBeNull();
    expect(job.log_url).toBe(`${fast.url}/${ACCOUNT}/api/jobs/${id}/log`);
    expect(job.outputs.map((o) => [o.name, o.records_count, o.component.name])).toEqual([
      ["orders", 100, "warehouse_out"],
      ["rejects", 5, "rejects"],
    ]);
    const response = await call(fast, job.outputs[0]!.url.slice(`${fast.url}/${ACCOUNT}/api`.length));
    expect(response.status).toBe(200);
    const output = await readJson(response);
    expect(Object.keys(output).sort()).toEqual([...JOB_OUTPUT_FIELDS].sort());
    expect(jobOutputRecord.parse(output)).toMatchObject({ id: job.outputs[0]!.id, records_count: 100 });
    const log = await readJson(await call(fast, `/jobs/${id}/log`));
    expect(log).toEqual({ body: expect.stringMatching(/Completed: 105 records written$/), url: job.log_url });
  });

  it("a failed job carries the package's error and no outputs", async () => {
    const { id } = await runJob(client, { cluster_id: 11, package_id: 103 });
    const job = await until(id, (j) => isJobFinished(j.status));
    expect(job).toMatchObject({ status: "failed", errors: "token expired", outputs: [], completed_at: null });
    expect(job.failed_at).not.toBeNull();
  });

  it("a stopped job keeps what it had written", async () => {
    const { id } = await runJob(client, { cluster_id: 11, package_id: 104 });
    await until(id, (j) => j.status === "running" && j.outputs[0]!.records_count > 0);
    expect((await stopJob(client, id)).status).toBe("pending_stoppage");
    const job = await until(id, (j) => isJobFinished(j.status));
    expect(job.status).toBe("stopped");
    expect(job.progress).toBeGreaterThan(0);
    expect(job.progress).toBeLessThan(1);
    expect(job.outputs[0]!.records_count).toBe(Math.round(1_000_000 * job.progress));
    await expectError(await call(fast, `/jobs/${id}`, { method: "DELETE" }), 422, "job has already finished (it is stopped)");
  });

  it("filters by status once jobs have settled", async () => {
    const completed = (await readJson(await call(fast, "/jobs?status=completed"))) as { package_id: number }[];
    expect(completed.length).toBeGreaterThan(0);
    expect(completed.every((job) => job.package_id === 101)).toBe(true);
    const failed = (await readJson(await call(fast, "/jobs?status=failed"))) as { package_id: number }[];
    expect(failed.map((job) => job.package_id)).toEqual([103]);
  });
});
