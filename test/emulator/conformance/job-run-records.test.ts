/** Jobs on the emulator: one job read, its variables and log, a stop asked for, and the list paged and filtered. */
import { beforeAll, describe, expect, it } from "vitest";
import { stopJob, type JobRecord } from "../../../provider/api/jobs";
import { NotFoundError } from "../../../provider/client/errors";
import { ACCOUNT, call, expectError, OTHER_KEY, readJson } from "../helpers";
import { createJob, expectJob, useJobsService } from "./helpers-jobs";

const service = useJobsService();

describe("one job", () => {
  let job: JobRecord;

  beforeAll(async () => {
    job = await createJob(service.emulator, { cluster_id: 11, package_id: 101, variables: { region: "eu" }, dynamic_variables: { stamp: "$now" } });
  });

  it("GET /jobs/{id} answers the job", async () => {
    const response = await call(service.emulator, `/jobs/${job.id}`);
    expect(response.status).toBe(200);
    expect(expectJob(await readJson(response), service.emulator.url)).toMatchObject({ id: job.id, package_id: 101 });
  });

  it("GET /jobs/{id}/variables overlays the package's variables with the job's", async () => {
    const response = await call(service.emulator, `/jobs/${job.id}/variables`);
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ region: "eu", run_date: "$yesterday", stamp: "$now" });
  });

  it("GET /jobs/{id}/log answers the log so far, without a URL before the job starts", async () => {
    const response = await call(service.emulator, `/jobs/${job.id}/log`);
    expect(response.status).toBe(200);
    const log = await readJson(response);
    expect(Object.keys(log).sort()).toEqual(["body", "url"]);
    expect(log.body).toMatch(/Run of package 'orders-rollup' requested/);
    expect(log.url).toBeNull();
  });

  it("is invisible to another account", async () => {
    const other = { key: OTHER_KEY, account: "globex" };
    for (const suffix of ["", "/variables", "/log"]) {
      await expectError(await call(service.emulator, `/jobs/${job.id}${suffix}`, other), 404, "Item not found.");
    }
    await expectError(await call(service.emulator, `/jobs/${job.id}`, { ...other, method: "DELETE" }), 404, "Item not found.");
  });

  it("DELETE /jobs/{id} asks it to stop; asking again changes nothing", async () => {
    const first = await stopJob(service.dana, job.id);
    expect(first.status).toBe("pending_stoppage");
    const again = await call(service.emulator, `/jobs/${job.id}`, { method: "DELETE" });
    expect(again.status).toBe(200);
    expect(expectJob(await readJson(again), service.emulator.url)).toMatchObject({ status: "pending_stoppage", updated_at: first.updated_at });
    await expect(stopJob(service.dana, 999)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("GET /jobs", () => {
  const path = (query: string) => `/jobs?cluster_id=12&${query}`;
  let ids: number[];

  beforeAll(async () => {
    ids = [];
    for (let i = 0; i < 25; i++) ids.push((await createJob(service.emulator, { cluster_id: 12, package_id: i % 2 === 0 ? 101 : 104 })).id);
  });

  async function collect(start: string): Promise<{ ids: number[]; pages: number }> {
    const seen: number[] = [];
    let next: string | undefined = start;
    let pages = 0;
    while (next !== undefined) {
      const response = await call(service.emulator, next);
      expect(response.status).toBe(200);
      seen.push(...((await readJson(response)) as unknown[]).map((item) => expectJob(item, service.emulator.url).id));
      next = /<([^>]+)>; rel="next"/.exec(response.headers.get("link") ?? "")?.[1]?.slice(`${service.emulator.url}/${ACCOUNT}/api`.length);
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
    const pivot = expectJob(await readJson(await call(service.emulator, `/jobs/${ids[12]}`)), service.emulator.url);
    const found = (await collect(path(`limit=100&since=${encodeURIComponent(pivot.created_at)}`))).ids;
    expect(found).toContain(ids[12]);
    expect(found).toContain(ids[24]);
    const all = (await readJson(await call(service.emulator, path("limit=100")))) as { id: number; created_at: string }[];
    expect(found).toEqual(all.filter((job) => job.created_at >= pivot.created_at).map((job) => job.id));
  });

  it("filters by status, all being the default", async () => {
    expect((await collect(path("limit=100&status=all"))).ids).toHaveLength(25);
    const response = await call(service.emulator, "/jobs?status=pending_stoppage&limit=100");
    for (const job of (await readJson(response)) as unknown[]) expect(expectJob(job, service.emulator.url).status).toBe("pending_stoppage");
  });

  it("lists nothing of another account", async () => {
    const response = await call(service.emulator, "/jobs?limit=100", { key: OTHER_KEY, account: "globex" });
    expect(await readJson(response)).toEqual([]);
  });
});
