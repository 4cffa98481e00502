/**
 * JobRun through the real engine against the emulator: a run waited for, never repeated
 * by later updates; replaced when what defines it changes; a failed run kept in state and run
 * again; a timeout that stops the job; a job stopped out of band; destroy stopping a running
 * job; adoption. Then what the wait costs in polls, measured on the provider directly.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { JobRun, type JobRunArgs } from "pulumi-etl";
import type { OperationContext } from "../../../provider/context";
import { contextWith } from "../../support/context";
import { jobRunImplementation } from "../../../provider/resources/job-run/implementation";
import type { JobRunOutputs } from "../../../provider/resources/job-run/fields";
import { createTestStack, type TestStack, failureOf } from "../../support/engine";
import { startTestEmulator, type Emulator } from "../../support/service";

const SPEED = 30;
const OK = { id: 101, name: "ok", run: { seconds: 60, outcome: "completed" as const, outputs: [{ name: "out", records: 1000 }] } };
const BROKEN = { id: 102, name: "broken", run: { seconds: 5, outcome: "failed" as const, error: "source table missing" } };
const LONG = { id: 103, name: "long", run: { seconds: 36_000, outcome: "completed" as const, outputs: [{ name: "big", records: 1_000_000 }] } };
const TEN_MINUTES = { id: 104, name: "ten-minutes", run: { seconds: 600, outcome: "completed" as const, outputs: [{ name: "out", records: 600 }] } };
const CLUSTER = { id: 201, name: "ready", nodes: 4 };

type Request = { method: string; path: string; status: number };
type ServiceJob = { id: number; status: string; packageId: number; variables: Record<string, string> };

const isJobGet = (id: number | string) => (r: Request) => r.method === "GET" && r.path.endsWith(`/jobs/${id}`);

/** "POST /jobs, GET /jobs/1 x3": a readable account of what an operation cost. */
function summary(requests: Request[]): string {
  const counts = new Map<string, number>();
  for (const r of requests) {
    const key = `${r.method} ${r.path.replace(/^\/[^/]+\/api/, "")}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => (n === 1 ? key : `${key} x${n}`)).join(", ") || "none";
}

async function jobsOf(service: Emulator): Promise<ServiceJob[]> {
  return (await service.state()).accounts[0].jobs;
}

async function waitForServiceJob(service: Emulator, id: number, done: (status: string) => boolean): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { body } = await service.api("GET", `/jobs/${id}`);
    if (done(body.status)) return body.status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`job ${id} did not settle`);
}

describe("JobRun on the real engine", { timeout: 240_000 }, () => {
  let service: Emulator;
  let test: TestStack;
  let args: JobRunArgs;
  const cliOutput: string[] = [];
  const onOutput = (text: string) => cliOutput.push(text);
  const costs: string[] = [];

  const runInState = async (): Promise<{ id: string; outputs: JobRunOutputs } | undefined> =>
    // A replaced job whose successor failed waits in state, marked for deletion, until the next up.
    ((await test.stack.exportStack()).deployment.resources ?? []).find((r: any) => r.type === "pulumi-nodejs:dynamic/etl:JobRun" && !r.delete);

  /** Runs an operation from an empty request log; returns its result and the calls it made. */
  async function counted<T>(operation: () => Promise<T>): Promise<{ result: T; requests: Request[] }> {
    await service.resetRequests();
    const result = await operation();
    return { result, requests: await service.requests() };
  }

  async function previewWithoutWrites(expectNoChanges: boolean) {
    await service.resetRequests();
    const preview = await test.stack.preview({ expectNoChanges, onOutput });
    expect(await service.writeRequests()).toEqual([]);
    return preview;
  }

  beforeAll(async () => {
    service = await startTestEmulator({ speed: SPEED, account: { packages: [OK, BROKEN, LONG], clusters: [CLUSTER] } });
    args = { clusterId: "201", packageId: OK.id, variables: { region: "eu" } };
    test = await createTestStack(
      "job-run",
      async () => {
        const run = new JobRun("nightly", args);
        return { id: run.id, status: run.status, outputs: run.outputs, clusterId: run.clusterId };
      },
      service,
    );
  });

  afterAll(async () => {
    if (costs.length > 0) console.log(`JobRun API calls per operation:\n  ${costs.join("\n  ")}`);
    test?.dispose();
    await service?.emulator.close();
  });

  let firstId: string;

  it("up runs the job, shows its progress on the job's own row and waits until it completes", async () => {
    const events: EngineEvent[] = [];
    const { result: up, requests } = await counted(() => test.stack.up({ onOutput, onEvent: (event) => events.push(event) }));
    expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
    firstId = up.outputs.id!.value;
    expect(up.outputs.status!.value).toBe("completed");
    expect(up.outputs.clusterId!.value).toBe(201);
    expect(up.outputs.outputs!.value).toEqual([{ id: expect.any(Number), name: "out", recordsCount: 1000 }]);
    const diagnostics = events.flatMap((event) => (event.diagnosticEvent ? [event.diagnosticEvent] : []));
    const progress = diagnostics.filter((d) => new RegExp(`job ${firstId} running \\d+%`).test(d.message));
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((d) => d.ephemeral && d.urn?.endsWith("etl:JobRun::nightly"))).toBe(true);
    expect(await jobsOf(service)).toMatchObject([{ id: Number(firstId), status: "completed", variables: { region: "eu" } }]);
    expect(requests.filter((r) => r.method !== "GET")).toEqual([expect.objectContaining({ method: "POST" })]);
    costs.push(`create (60 simulated s at speed ${SPEED}, ${60 / SPEED} s real): ${summary(requests)}`);
  });

  it("an unchanged preview proposes nothing and calls nothing", async () => {
    const { result: preview, requests } = await counted(() => previewWithoutWrites(true));
    expect(preview.changeSummary).toEqual({ same: 2 });
    expect(requests).toEqual([]);
    costs.push(`unchanged preview: ${summary(requests)}`);
  });

  it("refresh finds no change", async () => {
    const { result: refresh, requests } = await counted(() => test.stack.refresh({ expectNoChanges: true, onOutput }));
    expect(refresh.summary.resourceChanges).toEqual({ same: 2 });
    expect(requests.every(isJobGet(firstId))).toBe(true);
    costs.push(`refresh: ${summary(requests)}`);
  });

  // An unchanged up proposes what the unchanged preview above did: nothing, so it calls nothing.
  it("a second up, with a new timeout, records it in place with no API call, and does not run the job again", async () => {
    args = { ...args, timeoutSeconds: 600 };
    const { result: up, requests } = await counted(() => test.stack.up({ onOutput }));
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(up.outputs.id!.value).toBe(firstId);
    expect(requests).toEqual([]);
    expect(await jobsOf(service)).toHaveLength(1);
    expect((await runInState())!.outputs.timeoutSeconds).toBe(600);
  });

  it("new variables run a new job; the old one is forgotten, not touched", async () => {
    args = { ...args, variables: { region: "us" } };
    expect((await previewWithoutWrites(false)).changeSummary).toMatchObject({ replace: 1 });
    const { result: up, requests } = await counted(() => test.stack.up({ onOutput }));
    expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
    expect(up.outputs.id!.value).not.toBe(firstId);
    expect(requests.filter((r) => r.method === "DELETE")).toEqual([]);
    const jobs = await jobsOf(service);
    expect(jobs).toHaveLength(2);
    expect(jobs.find((j) => j.id === Number(firstId))!.status).toBe("completed");
    expect(jobs.find((j) => j.id === Number(up.outputs.id!.value))).toMatchObject({ status: "completed", variables: { region: "us" } });
  });

  it("a failed job fails up with its error, stays in state, and runs again on the next up", async () => {
    args = { ...args, packageId: BROKEN.id };
    const output = await failureOf(test.stack.up({ onOutput }));
    const failedJobs = () => jobsOf(service).then((jobs) => jobs.filter((j) => j.packageId === BROKEN.id));
    const [failed] = await failedJobs();
    expect(output).toContain(`job ${failed!.id} failed: source table missing`);
    expect(output).not.toMatch(/\n\s+at /);
    const recorded = await runInState();
    expect(recorded).toMatchObject({ id: String(failed!.id), outputs: { status: "failed", errors: "source table missing" } });

    // That a failed job's diff asks for a replacement is in rules.test.ts; here the next up runs it.
    const again = await failureOf(test.stack.up({ onOutput }));
    const jobs = await failedJobs();
    expect(jobs.map((j) => j.status)).toEqual(["failed", "failed"]);
    expect(again).toContain(`job ${jobs[1]!.id} failed: source table missing`);
    expect((await runInState())!.id).toBe(String(jobs[1]!.id));
  });

  it("a job past its timeout is stopped and fails up clearly", async () => {
    args = { ...args, packageId: LONG.id, timeoutSeconds: 1 };
    const output = await failureOf(test.stack.up({ onOutput }));
    const long = (await jobsOf(service)).filter((j) => j.packageId === LONG.id);
    expect(long).toMatchObject([{ status: "stopped" }]);
    expect(output).toContain(`job ${long[0]!.id} did not finish within 1 s and was stopped`);
    expect(await runInState()).toMatchObject({ id: String(long[0]!.id), outputs: { status: "stopped" } });
  });

  let runningId: string;

  it("without waiting, up returns as soon as the job is started", async () => {
    args = { clusterId: 201, packageId: LONG.id, waitForCompletion: false };
    const { result: up, requests } = await counted(() => test.stack.up({ onOutput }));
    expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
    expect(up.outputs.status!.value).toBe("idle");
    runningId = up.outputs.id!.value;
    expect(requests).toEqual([expect.objectContaining({ method: "POST" })]);
    await waitForServiceJob(service, Number(runningId), (status) => status === "running");
  });

  it("a job stopped out of band shows on refresh, and up runs it again, in one `up --refresh`", async () => {
    expect((await service.api("DELETE", `/jobs/${runningId}`)).status).toBe(200);
    await waitForServiceJob(service, Number(runningId), (status) => status === "stopped");

    // The state recorded the job running: only a refresh that found it stopped gives the update a
    // job to run again (that a stopped job's diff asks for a replacement is in rules.test.ts).
    const up = await test.stack.up({ onOutput, refresh: true });
    expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
    expect(up.outputs.id!.value).not.toBe(runningId);
    runningId = up.outputs.id!.value;
  });

  it("destroy stops a job that is still running", async () => {
    await waitForServiceJob(service, Number(runningId), (status) => status === "running");
    const { result: destroy, requests } = await counted(() => test.stack.destroy({ onOutput }));
    expect(destroy.summary.resourceChanges).toMatchObject({ delete: 2 });
    expect((await jobsOf(service)).find((j) => j.id === Number(runningId))!.status).toBe("stopped");
    costs.push(`destroy of a running job: ${summary(requests)}`);
  });

  it("adopts an existing job by importId, refusing one whose inputs differ", async () => {
    const made = await service.api("POST", "/jobs", { cluster_id: 201, package_id: OK.id, variables: { region: "eu" } });
    expect(made.status).toBe(201);
    const importId = String(made.body.id);
    await waitForServiceJob(service, made.body.id, (status) => status === "completed");

    args = { clusterId: 201, packageId: OK.id, importId };
    const refused = await failureOf(test.stack.up({ onOutput }));
    expect(refused).toContain(`cannot adopt job ${importId}: variables differ from the job's (keys region)`);
    expect(refused).not.toMatch(/region\W+eu/); // values may be secrets

    args = { ...args, variables: { region: "eu" } };
    const { result: up, requests } = await counted(() => test.stack.up({ onOutput }));
    expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
    expect(up.outputs.id!.value).toBe(importId);
    expect(up.outputs.status!.value).toBe("completed");
    expect(requests).toEqual([expect.objectContaining({ method: "GET" })]);
    costs.push(`adoption of a completed job: ${summary(requests)}`);

    const preview = await previewWithoutWrites(true);
    expect(preview.changeSummary).toEqual({ same: 2 });
  });

  it("destroy forgets a finished job without calling the service", async () => {
    const jobsBefore = await jobsOf(service);
    const { result: destroy, requests } = await counted(() => test.stack.destroy({ onOutput }));
    expect(destroy.summary.resourceChanges).toMatchObject({ delete: 2 });
    expect(requests).toEqual([]);
    expect(await runInState()).toBeUndefined();
    expect(await jobsOf(service)).toEqual(jobsBefore);
    // Nothing of the stack runs any more.
    expect((await jobsOf(service)).filter((j) => !["completed", "failed", "stopped"].includes(j.status))).toEqual([]);
    costs.push(`destroy of a finished job: ${summary(requests)}`);
  });
});

describe("what waiting for a job costs", { timeout: 60_000 }, () => {
  let service: Emulator;
  let ctx: OperationContext;
  const lines: string[] = [];
  const log = console.log;

  beforeAll(async () => {
    service = await startTestEmulator({ speed: 60, account: { packages: [TEN_MINUTES], clusters: [CLUSTER] } });
    const settings: Record<string, string> = { "etl:apiUrl": service.url, "etl:accountId": service.accountId, "etl:apiKey": service.apiKey };
    ctx = contextWith(settings);
    console.log = (...parts: unknown[]) => void lines.push(parts.join(" "));
  });
  afterAll(async () => {
    console.log = log;
    await service?.emulator.close();
  });

  it("a 600-second job at speed 60 (10 s) takes a few polls", async () => {
    await service.resetRequests();
    const started = Date.now();
    const result = await jobRunImplementation.create(ctx, { clusterId: 201, packageId: TEN_MINUTES.id });
    const seconds = (Date.now() - started) / 1000;
    expect(result.outs!.status).toBe("completed");
    const requests = await service.requests();
    const polls = requests.filter(isJobGet(result.id)).length;
    expect(polls).toBeLessThanOrEqual(4);
    log(`600-second job at speed 60: ${summary(requests)} (${polls} polls), up waited ${seconds.toFixed(1)} s; printed: ${lines.join(" | ")}`);
  });

  it("a job that is gone leaves state on refresh", async () => {
    expect(await jobRunImplementation.read(ctx, "99999", {} as JobRunOutputs)).toEqual({});
  });
});
