/** JobRun's check, diff and in-place update: pure rules, no API call (the request function is never set up). */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import type { JobRecord } from "../../../provider/api/jobs";
import { jobRunImplementation } from "../../../provider/resources/job-run/implementation";
import { remainingEstimator } from "../../../provider/resources/job-run/waits";
import type { JobRunInputs, JobRunOutputs } from "../../../provider/resources/job-run/fields";
import { expectedFailure } from "../check-failure";
import { noCallsContext } from "../../support/context";

const unknown = pulumi.runtime.unknownValue;
const check = (news: Record<string, unknown>) => jobRunImplementation.check({}, { __provider: "shim", ...news });

describe("JobRun check", () => {
  it("takes ids as numbers or numeric strings and keeps the engine's own properties out", async () => {
    const result = await check({ clusterId: "201", packageId: 101, variables: { region: "eu" }, triggers: { build: [1, "a"] } });
    expect(result).toEqual({ ok: true, inputs: { clusterId: 201, packageId: 101, variables: { region: "eu" }, triggers: { build: [1, "a"] } } });
  });

  it("accepts every optional input", async () => {
    const inputs = { clusterId: 1, packageId: 2, dynamicVariables: { day: "$today" }, waitForCompletion: false, timeoutSeconds: 604_800, importId: "42" };
    expect(await check(inputs)).toEqual({ ok: true, inputs });
    expect(await check({ ...inputs, importId: 42 })).toEqual({ ok: true, inputs });
  });

  it.each<[Record<string, unknown>, string, string]>([
    [{ packageId: 101 }, "clusterId", "clusterId is required"],
    [{ clusterId: 201 }, "packageId", "packageId is required"],
    [{ clusterId: "abc", packageId: 101 }, "clusterId", 'clusterId must be a positive integer, as a number or a string such as "201"'],
    [{ clusterId: 0, packageId: 101 }, "clusterId", "clusterId must be a positive integer"],
    [{ clusterId: 201, packageId: 1.5 }, "packageId", "packageId must be a positive integer"],
    [{ clusterId: 201, packageId: "007" }, "packageId", "packageId must be a positive integer"],
    [{ clusterId: 201, packageId: 101, variables: { region: 3 } }, "variables.region", "variables.region must be a string, got a number"],
    [{ clusterId: 201, packageId: 101, variables: "region=eu" }, "variables", "variables must be a record, got a string"],
    [{ clusterId: 201, packageId: 101, dynamicVariables: { day: null } }, "dynamicVariables.day", "dynamicVariables.day must be a string, got null"],
    [{ clusterId: 201, packageId: 101, waitForCompletion: "yes" }, "waitForCompletion", "waitForCompletion must be a boolean, got a string"],
    [{ clusterId: 201, packageId: 101, timeoutSeconds: 0 }, "timeoutSeconds", "timeoutSeconds must be at least 1"],
    [{ clusterId: 201, packageId: 101, timeoutSeconds: 604_801 }, "timeoutSeconds", "timeoutSeconds must be at most 604800"],
    [{ clusterId: 201, packageId: 101, timeoutSeconds: 1.5 }, "timeoutSeconds", "timeoutSeconds must be a whole number of seconds"],
    [{ clusterId: 201, packageId: 101, importId: "job-42" }, "importId", "importId must be the id of an existing object"],
    [{ clusterId: 201, packageId: 101, cluster: 201 }, "cluster", "cluster is not an input of this resource"],
  ])("fails %j on %s", async (inputs, property, reason) => {
    const result = await check(inputs);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.failures).toContainEqual(expectedFailure(inputs, property, reason));
  });

  it("refuses inputs whose request the service would refuse as too large, naming the largest input", async () => {
    const inputs = { clusterId: 201, packageId: 101, variables: { a: "x".repeat(400_000) }, dynamicVariables: { b: "y".repeat(700_000) } };
    const result = await check(inputs);
    expect(!result.ok && result.failures).toEqual([
      expectedFailure(inputs, "dynamicVariables", "dynamicVariables is too large: the request would be 1100085 bytes, and the service takes at most 1048576"),
    ]);
    expect((await check({ ...inputs, dynamicVariables: { b: "y".repeat(600_000) } })).ok).toBe(true);
  });

  it("leaves values unknown during a preview to the update", async () => {
    const result = await check({ clusterId: unknown, packageId: 101, variables: unknown, waitForCompletion: unknown, importId: unknown });
    expect(result.ok).toBe(true);
  });
});

const olds: JobRunOutputs = {
  waitForCompletion: true,
  timeoutSeconds: 3600,
  status: "completed",
  ownerId: 70,
  progress: 1,
  outputs: [],
  variables: { region: "eu" },
  dynamicVariables: {},
  startedAt: "2026-11-21T00:00:03Z",
  createdAt: "2026-11-21T00:00:00Z",
  failedAt: null,
  completedAt: "2026-11-21T00:01:03Z",
  clusterId: 201,
  packageId: 101,
  errors: "",
  runtimeInSeconds: 60,
  htmlUrl: "http://127.0.0.1/acme/jobs/1",
  logUrl: "http://127.0.0.1/acme/api/jobs/1/log",
};
const same: JobRunInputs = { clusterId: 201, packageId: 101, variables: { region: "eu" } };
const diff = (news: Partial<JobRunInputs>, recorded: Partial<JobRunOutputs> = {}) =>
  jobRunImplementation.diff("1", { ...olds, ...recorded }, { ...same, ...news } as JobRunInputs);

describe("JobRun diff", () => {
  it("sees no change when omitted inputs match the service's defaults", async () => {
    expect(await diff({})).toMatchObject({ changes: false, replaces: [] });
    expect(await diff({ variables: { region: "eu" }, dynamicVariables: {}, waitForCompletion: true, timeoutSeconds: 3600 })).toMatchObject({ changes: false });
  });

  it.each<[string, Partial<JobRunInputs>]>([
    ["clusterId", { clusterId: 202 }],
    ["packageId", { packageId: 102 }],
    ["variables", { variables: { region: "us" } }],
    ["variables", { variables: undefined }],
    ["dynamicVariables", { dynamicVariables: { day: "$today" } }],
    ["triggers", { triggers: "v2" }],
  ])("runs a new job when %s changes", async (field, news) => {
    expect(await diff(news)).toMatchObject({ changes: true, replaces: [field], deleteBeforeReplace: false });
  });

  it("replaces when an input is not known yet", async () => {
    expect(await diff({ clusterId: unknown as unknown as number })).toMatchObject({ changes: true, replaces: ["clusterId"] });
  });

  it.each<[Partial<JobRunInputs>]>([[{ waitForCompletion: false }], [{ timeoutSeconds: 60 }]])("updates %j in place", async (news) => {
    expect(await diff(news)).toMatchObject({ changes: true, replaces: [], deleteBeforeReplace: false });
  });

  it("never acts on importId, which only matters when the job run is created", async () => {
    expect(await diff({ importId: "7" })).toMatchObject({ changes: false });
  });

  it.each(["failed", "stopped"])("runs the package again when the recorded job %s", async (status) => {
    expect(await diff({}, { status })).toMatchObject({ changes: true, replaces: ["status"], deleteBeforeReplace: false });
    expect(await diff({ triggers: 2 }, { status })).toMatchObject({ replaces: ["triggers", "status"] });
  });

  it.each(["idle", "pending", "queued", "running", "pending_stoppage", "stopping", "completed"])("leaves a %s job alone", async (status) => {
    expect(await diff({}, { status })).toMatchObject({ changes: false });
  });
});

describe("JobRun update", () => {
  it("records the new way of waiting and keeps the job's fields", async () => {
    const result = await jobRunImplementation.update(
      noCallsContext(),
      "1",
      { ...olds, importId: "1" },
      { ...same, waitForCompletion: false, timeoutSeconds: 60 },
    );
    expect(result.outs).toEqual({ ...olds, waitForCompletion: false, timeoutSeconds: 60 });
  });
});

describe("JobRun's estimate of the time left", () => {
  const job = (status: string, progress: number, startedAt: string | null) => ({ status, progress, started_at: startedAt }) as JobRecord;
  const at = (ms: number) => new Date(Date.UTC(2026, 10, 21) + ms).toISOString();

  it("divides the running time by the share done", () => {
    let now = Date.UTC(2026, 10, 21) + 1_000;
    const estimate = remainingEstimator(job("running", 0.1, at(0)), () => now);
    now += 1_000;
    expect(estimate(job("running", 0.25, at(0)))).toBe(6_000);
  });

  it("cannot tell before the job runs or shows progress", () => {
    const estimate = remainingEstimator(job("idle", 0, null));
    expect(estimate(job("queued", 0, null))).toBeUndefined();
    expect(estimate(job("running", 0, at(0)))).toBeUndefined();
  });

  it("caps the running time at the time since a poll saw the job waiting, whatever the clocks say", () => {
    let now = Date.UTC(2026, 10, 21);
    const estimate = remainingEstimator(job("idle", 0, null), () => now);
    now += 1_000;
    expect(estimate(job("queued", 0, null))).toBeUndefined();
    now += 1_000;
    // started_at an hour earlier by this machine's clock: only 1 s can have passed since.
    expect(estimate(job("running", 0.5, new Date(now - 3_600_000).toISOString()))).toBe(1_000);
  });
});
