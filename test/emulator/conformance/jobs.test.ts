import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Fixtures, type RunningEmulator } from "../../../emulator";
import {
  getJob,
  isJobFinished,
  JOB_FIELDS,
  JOB_OUTPUT_FIELDS,
  JOB_STATUSES,
  jobOutputRecord,
  jobRecord,
  runJob,
  stopJob,
  type JobRecord,
} from "../../../provider/api/jobs";
import { BillingRequiredError, NotFoundError, ValidationError } from "../../../provider/client/errors";
import { createHttpRequest, type RequestFn } from "../../../provider/client/http";
import { ACCOUNT, call, DANA_KEY, expectError, OTHER_KEY, readJson, testFixtures, UNBILLED_ACCOUNT, UNBILLED_KEY, unbilledAccount } from "../helpers";


function fixtures(): Fixtures {
  const [acme, globex] = testFixtures().accounts;
  return {
    accounts: [
      {
        ...acme!,
        clusters: [
          { id: 11, name: "main", nodes: 100 },
          { id: 12, name: "paging", nodes: 1 },
          { id: 13, name: "old", status: "terminated" },
        ],
        packages: [
          {
            id: 101,
            name: "orders-rollup",
            variables: { region: "all", run_date: "$yesterday" },
            run: {
              seconds: 1,
              outputs: [
                { name: "orders", records: 100, component: { name: "warehouse_out", type: "database_destination", fields: ["day", "orders"] } },
                { name: "rejects", records: 5 },
              ],
            },
          },
          { id: 102, name: "legacy-export", status: "archived" },
          { id: 103, name: "crm-sync", run: { seconds: 1, outcome: "failed", error: "token expired" } },
          { id: 104, name: "endless", run: { seconds: 1_000_000, outputs: [{ name: "stream", records: 1_000_000 }] } },
        ],
      },
      { ...globex!, clusters: [{ id: 91, name: "globex" }], packages: [{ id: 901, name: "globex-secret" }] },
      unbilledAccount(),
    ],
  };
}

let emulator: RunningEmulator;
let dana: RequestFn;

// At real speed a new job stays idle for a simulated second, long enough to look at it.
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, fixtures: fixtures(), creditsPerHour: 100_000 });
  dana = createHttpRequest({ apiUrl: emulator.url, accountId: ACCOUNT, apiKey: DANA_KEY, vendor: "service" });
});

afterAll(async () => {
  await emulator.close();
});

function expectJob(body: unknown, base: string): JobRecord {
  const job = jobRecord.parse(body);
  expect(Object.keys(body as object).sort()).toEqual([...JOB_FIELDS].sort());
  for (const output of (body as { outputs: object[] }).outputs) {
    expect(Object.keys(output).sort()).toEqual([...JOB_OUTPUT_FIELDS].sort());
  }
  expect(JOB_STATUSES).toContain(job.status);
  expect(job.outputs_count).toBe(job.outputs.length);
  expect(job.url).toBe(`${base}/${ACCOUNT}/api/jobs/${job.id}`);
  expect(job.html_url).toBe(`${base}/${ACCOUNT}/jobs/${job.id}`);
  return job;
}

function postJob(body: unknown, options: { key?: string; account?: string } = {}): Promise<Response> {
  return call(emulator, "/jobs", { method: "POST", body, ...options });
}

async function createJob(body: object): Promise<JobRecord> {
  const response = await postJob(body);
  expect(response.status).toBe(201);
  return expectJob(await readJson(response), emulator.url);
}

describe("POST /jobs (spec 4.1)", () => {
  it("creates the job in idle with every field of spec 2.1", async () => {
    const job = await createJob({ cluster_id: 11, package_id: 101, variables: { region: "eu" }, dynamic_variables: { now: "$now" } });
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
      package: { id: 101, name: "orders-rollup", url: `${emulator.url}/${ACCOUNT}/api/packages/101` },
      cluster: { id: 11, name: "main", url: `${emulator.url}/${ACCOUNT}/api/clusters/11` },
    });
    expect(job.created_at).toBe(job.updated_at);
  });

  it("is run through the provider's runJob", async () => {
    const job = await runJob(dana, { cluster_id: 11, package_id: 101 });
    expect(job).toMatchObject({ status: "idle", variables: {}, dynamic_variables: {} });
    expect((await getJob(dana, job.id)).id).toBe(job.id);
  });

  it("answers 402 for an account without billing, before checking fields", async () => {
    const options = { key: UNBILLED_KEY, account: UNBILLED_ACCOUNT };
    const message = "Billing information required: add a payment method before running jobs.";
    await expectError(await postJob({ cluster_id: 81, package_id: 801 }, options), 402, message);
    await expectError(await postJob({ cluster_id: "nope" }, options), 402, message);
    await expectError(await postJob([1], options), 400, "Request body must be a JSON object.");
    const unbilled = createHttpRequest({ apiUrl: emulator.url, accountId: UNBILLED_ACCOUNT, apiKey: UNBILLED_KEY, vendor: "service" });
    await expect(runJob(unbilled, { cluster_id: 81, package_id: 801 })).rejects.toBeInstanceOf(BillingRequiredError);
  });

  it("answers 422 through the provider's runJob for a terminated cluster", async () => {
    await expect(runJob(dana, { cluster_id: 13, package_id: 101 })).rejects.toBeInstanceOf(ValidationError);
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
    await expectError(await call(emulator, path, { method, body }), status, message);
  });
});

describe("one job", () => {
  let job: JobRecord;

  beforeAll(async () => {
    job = await createJob({ cluster_id: 11, package_id: 101, variables: { region: "eu" }, dynamic_variables: { stamp: "$now" } });
  });

  it("GET /jobs/{id} answers the job", async () => {
    const response = await call(emulator, `/jobs/${job.id}`);
    expect(response.status).toBe(200);
    expect(expectJob(await readJson(response), emulator.url)).toMatchObject({ id: job.id, package_id: 101 });
  });

  it("GET /jobs/{id}/variables overlays the package's variables with the job's", async () => {
    const response = await call(emulator, `/jobs/${job.id}/variables`);
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ region: "eu", run_date: "$yesterday", stamp: "$now" });
  });

  it("GET /jobs/{id}/log answers the log so far, without a URL before the job starts", async () => {
    const response = await call(emulator, `/jobs/${job.id}/log`);
    expect(response.status).toBe(200);
    const log = await readJson(response);
    expect(Object.keys(log).sort()).toEqual(["body", "url"]);
    expect(log.body).toMatch(/Run of package 'orders-rollup' requested/);
    expect(log.url).toBeNull();
  });

  it("is invisible to another account", async () => {
    const other = { key: OTHER_KEY, account: "globex" };
    for (const suffix of ["", "/variables", "/log"]) {
      await expectError(await call(emulator, `/jobs/${job.id}${suffix}`, other), 404, "Item not found.");
    }
    await expectError(await call(emulator, `/jobs/${job.id}`, { ...other, method: "DELETE" }), 404, "Item not found.");
  });

  it("DELETE /jobs/{id} asks it to stop; asking again changes nothing", async () => {
    const first = await stopJob(dana, job.id);
    expect(first.status).toBe("pending_stoppage");
    const again = await call(emulator, `/jobs/${job.id}`, { method: "DELETE" });
    expect(again.status).toBe(200);
    expect(expectJob(await readJson(again), emulator.url)).toMatchObject({ status: "pending_stoppage", updated_at: first.updated_at });
    await expect(stopJob(dana, 999)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("GET /jobs", () => {
  const path = (query: string) => `/jobs?cluster_id=12&${query}`;
  let ids: number[];

  beforeAll(async () => {
    ids = [];
    for (let i = 0; i < 25; i++) ids.push((await createJob({ cluster_id: 12, package_id: i % 2 === 0 ? 101 : 104 })).id);
  });

  async function collect(start: string): Promise<{ ids: number[]; pages: number }> {
    const seen: number[] = [];
    let next: string | undefined = start;
    let pages = 0;
    while (next !== undefined) {
      const response = await call(emulator, next);
      expect(response.status).toBe(200);
      seen.push(...((await readJson(response)) as unknown[]).map((item) => expectJob(item, emulator.url).id));
      next = /<([^>]+)>; rel="next"/.exec(response.headers.get("link") ?? "")?.[1]?.slice(`${emulator.url}/${ACCOUNT}/api`.length);
      pages++;
    }
    return { ids: seen, pages };
  }

  it("walks 25 jobs, newest first, through Link rel=next in pages of 10", async () => {
    expect(await collect(path("limit=10"))).toEqual({ ids: [...ids].reverse(), pages: 3 });
  });

  it("sorts oldest first on request", async () => {
    expect((await collect(path("limit=10&sort=created&direction=asc"))).ids).toEqual(ids);
  });

  it("filters by package", async () => {
    const found = (await collect(path("limit=100&package_id=104"))).ids;
    expect(found).toEqual(ids.filter((_, i) => i % 2 === 1).reverse());
  });

  it("filters by creation time with since", async () => {
    const pivot = expectJob(await readJson(await call(emulator, `/jobs/${ids[12]}`)), emulator.url);
    const found = (await collect(path(`limit=100&since=${encodeURIComponent(pivot.created_at)}`))).ids;
    expect(found).toContain(ids[12]);
    expect(found).toContain(ids[24]);
    const all = (await readJson(await call(emulator, path("limit=100")))) as { id: number; created_at: string }[];
    expect(found).toEqual(all.filter((job) => job.created_at >= pivot.created_at).map((job) => job.id));
  });

  it("filters by status, all being the default", async () => {
    expect((await collect(path("limit=100&status=all"))).ids).toHaveLength(25);
    const response = await call(emulator, "/jobs?status=pending_stoppage&limit=100");
    for (const job of (await readJson(response)) as unknown[]) expect(expectJob(job, emulator.url).status).toBe("pending_stoppage");
  });

  it("lists nothing of another account", async () => {
    const response = await call(emulator, "/jobs?limit=100", { key: OTHER_KEY, account: "globex" });
    expect(await readJson(response)).toEqual([]);
  });
});

describe("finished jobs (fast clock)", () => {
  let fast: RunningEmulator;
  let client: RequestFn;

  beforeAll(async () => {
    fast = await startEmulator({ port: 0, fixtures: fixtures(), speed: 1000, creditsPerHour: 100_000 });
    client = createHttpRequest({ apiUrl: fast.url, accountId: ACCOUNT, apiKey: DANA_KEY, vendor: "service" });
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
