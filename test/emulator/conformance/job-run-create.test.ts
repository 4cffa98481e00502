/** Running a job on the emulator (spec 4.1): what a new job holds, and requests it refuses. */
import { describe, expect, it } from "vitest";
import { getJob, runJob } from "../../../provider/api/jobs";
import { BillingRequiredError, ValidationError } from "../../../provider/client/errors";
import { createHttpRequest } from "../../../provider/client/http";
import { ACCOUNT, call, expectError, UNBILLED_ACCOUNT, UNBILLED_KEY } from "../helpers";
import { createJob, postJob, useJobsService } from "./helpers-jobs";

const service = useJobsService();

describe("POST /jobs (spec 4.1)", () => {
  it("creates the job in idle with every field of spec 2.1", async () => {
    const job = await createJob(service.emulator, { cluster_id: 11, package_id: 101, variables: { region: "eu" }, dynamic_variables: { now: "$now" } });
    expect(job).toMatchObject({
      status: "idle",
      owner_id: 1,
      progress: 0,
      outputs_count: 0,
      outputs: [],
      variables: { region: "eu" },
      dynamic_variables: { now: "$now" },
      started_at: null,
      failed_at: null,
      completed_at: null,
      cluster_id: 11,
      package_id: 101,
      errors: "",
      runtime_in_seconds: 0,
      log_url: null,
      creator: { type: "User", display_name: "Dana Platform", id: 1 },
      package: { id: 101, name: "orders-rollup", url: `${service.emulator.url}/${ACCOUNT}/api/packages/101` },
      cluster: { id: 11, name: "main", url: `${service.emulator.url}/${ACCOUNT}/api/clusters/11` },
    });
    expect(job.created_at).toBe(job.updated_at);
  });

  it("is run through the provider's runJob", async () => {
    const job = await runJob(service.dana, { cluster_id: 11, package_id: 101 });
    expect(job).toMatchObject({ status: "idle", variables: {}, dynamic_variables: {} });
    expect((await getJob(service.dana, job.id)).id).toBe(job.id);
  });

  it("answers 402 for an account without billing, before checking fields", async () => {
    const options = { key: UNBILLED_KEY, account: UNBILLED_ACCOUNT };
    const message = "Billing information required: add a payment method before running jobs.";
    await expectError(await postJob(service.emulator, { cluster_id: 81, package_id: 801 }, options), 402, message);
    await expectError(await postJob(service.emulator, { cluster_id: "nope" }, options), 402, message);
    await expectError(await postJob(service.emulator, [1], options), 400, "Request body must be a JSON object.");
    const unbilled = createHttpRequest({ apiUrl: service.emulator.url, accountId: UNBILLED_ACCOUNT, apiKey: UNBILLED_KEY, vendor: "service" });
    await expect(runJob(unbilled, { cluster_id: 81, package_id: 801 })).rejects.toBeInstanceOf(BillingRequiredError);
  });

  it("answers 422 through the provider's runJob for a terminated cluster", async () => {
    await expect(runJob(service.dana, { cluster_id: 13, package_id: 101 })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe("malformed job requests", () => {
  it.each<[string, string, unknown, number, RegExp]>([
    ["POST", "/jobs", [], 400, /^Request body must be a JSON object\.$/],
    ["POST", "/jobs", "cluster_id=11", 400, /^Request body must be a JSON object\.$/],
    ["POST", "/jobs", {}, 422, /cluster_id is required; package_id is required/],
    ["POST", "/jobs", { cluster_id: "11", package_id: 101 }, 422, /^cluster_id must be a positive integer$/],
    ["POST", "/jobs", { cluster_id: 11 }, 422, /^package_id is required$/],
    ["POST", "/jobs", { cluster_id: 11, package_id: 1.5 }, 422, /^package_id must be a positive integer$/],
    ["POST", "/jobs", { cluster_id: -1, package_id: 101 }, 422, /^cluster_id must be a positive integer$/],
    ["POST", "/jobs", { cluster_id: 11, package_id: 101, variables: { a: 1 } }, 422, /^variables\.a must be a string$/],
    ["POST", "/jobs", { cluster_id: 11, package_id: 101, variables: ["a"] }, 422, /^variables must be an object$/],
    ["POST", "/jobs", { cluster_id: 11, package_id: 101, dynamic_variables: "x" }, 422, /^dynamic_variables must be an object$/],
    ["POST", "/jobs", { cluster_id: 11, package_id: 101, dynamic_variables: { d: null } }, 422, /^dynamic_variables\.d must be a string$/],
    ["POST", "/jobs", { cluster_id: 11, package_id: 101, cluster: 11 }, 422, /^cluster is not a known field$/],
    ["POST", "/jobs", { cluster_id: 999, package_id: 101 }, 422, /^cluster_id 999 does not name a cluster of this account$/],
    ["POST", "/jobs", { cluster_id: 91, package_id: 101 }, 422, /^cluster_id 91 does not name a cluster of this account$/],
    ["POST", "/jobs", { cluster_id: 13, package_id: 101 }, 422, /^cluster_id 13 names a cluster that is terminated$/],
    ["POST", "/jobs", { cluster_id: 11, package_id: 102 }, 422, /^package_id 102 names a package that is archived$/],
    ["POST", "/jobs", { cluster_id: 11, package_id: 901 }, 422, /^package_id 901 does not name a package of this account$/],
    ["GET", "/jobs?status=done", undefined, 400, /^status must be all or one of idle, pending/],
    ["GET", "/jobs?package_id=abc", undefined, 400, /^package_id must be a positive integer$/],
    ["GET", "/jobs?cluster_id=0", undefined, 400, /^cluster_id must be a positive integer$/],
    ["GET", "/jobs?since=yesterday", undefined, 400, /^since must be an ISO 8601 date-time/],
    ["GET", "/jobs?sort=name", undefined, 400, /^sort must be one of created, updated$/],
    ["GET", "/jobs?direction=up", undefined, 400, /^direction must be asc or desc$/],
    ["GET", "/jobs?offset=-1", undefined, 400, /^offset must be/],
    ["GET", "/jobs/999", undefined, 404, /^Item not found\.$/],
    ["GET", "/jobs/abc/log", undefined, 404, /^Item not found\.$/],
    ["DELETE", "/jobs/999", undefined, 404, /^Item not found\.$/],
  ])("%s %s %j answers %i", async (method, path, body, status, message) => {
    await expectError(await call(service.emulator, path, { method, body }), status, message);
  });
});
