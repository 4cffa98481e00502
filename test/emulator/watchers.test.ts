import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { call, expectError, LEE_KEY, OTHER_ACCOUNT, OTHER_KEY, readJson, testFixtures, until, type ApiRecord } from "./helpers";

/**
 * Watchers of clusters and jobs (facts, "Notifications and watchers"), on the paths schedules
 * have: POST watches (200), GET lists, DELETE stops (204); the creator watches from the start,
 * and watchers hear through their notifications when the record reaches a status they are told
 * of. At SPEED a cluster is created in 100 ms and a package of 10 s runs for 50 ms.
 */

const SPEED = 200;

let emulator: RunningEmulator;

beforeAll(async () => {
  const [acme, globex] = testFixtures().accounts;
  emulator = await startEmulator({
    port: 0,
    speed: SPEED,
    creditsPerHour: 1_000_000,
    fixtures: {
      accounts: [
        {
          ...acme!,
          clusters: [
            { id: 11, name: "shared", nodes: 2, ownerId: 2 },
            { id: 12, name: "roomy", nodes: 10 },
          ],
          packages: [
            { id: 101, name: "orders-rollup", run: { seconds: 10 } },
            { id: 102, name: "crm-sync", run: { seconds: 10, outcome: "failed", error: "token expired" } },
            { id: 104, name: "long-load", run: { seconds: 100_000 } },
          ],
        },
        globex!,
      ],
    },
  });
});

afterAll(async () => {
  await emulator.close();
});

async function send(method: string, path: string, body?: unknown, key?: string): Promise<any> {
  const response = await call(emulator, path, { method, body, key });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return response.status === 204 ? {} : readJson(response);
}

async function read(path: string, key?: string): Promise<any> {
  return send("GET", path, undefined, key);
}

async function notificationTitles(key?: string): Promise<string[]> {
  return ((await read("/notifications?limit=100", key)) as ApiRecord[]).map((n) => n.title);
}

const DANA = { id: 1, display_name: "Dana Platform" };
const LEE = { id: 2, display_name: "Lee Analyst" };

async function newCluster(name: string): Promise<ApiRecord> {
  return send("POST", "/clusters", { nodes: 2, name });
}

/** Cluster 11 has room for the long jobs of the first tests; 12 runs those that must finish. */
async function newJob(packageId: number, clusterId = 11): Promise<ApiRecord> {
  return send("POST", "/jobs", { cluster_id: clusterId, package_id: packageId });
}

describe.each([
  ["cluster", () => newCluster("watched")],
  ["job", () => newJob(104)],
] as const)("%s watchers", (kind, create) => {
  it("starts with the creator, adds the caller with 200, lists watchers, and stops with 204", async () => {
    const record = await create();
    const path = `/${kind}s/${record.id}/watchers`;
    expect(await read(path)).toEqual([DANA]);
    const watched = await send("POST", path, undefined, LEE_KEY);
    expect(watched).toEqual({ created_at: expect.any(String), [`${kind}_url`]: record.url });
    const again = await call(emulator, path, { method: "POST", key: LEE_KEY });
    expect(again.status).toBe(200);
    expect((await readJson(again)).created_at).toBe(watched.created_at);
    expect(await read(path)).toEqual([DANA, LEE]);
    const stopped = await call(emulator, path, { method: "DELETE" });
    expect(stopped.status).toBe(204);
    expect(await stopped.text()).toBe("");
    expect((await call(emulator, path, { method: "DELETE" })).status).toBe(204);
    expect(await read(path)).toEqual([LEE]);
  });

  it("answers 404 for another account's record or an unknown one, and 405 to another method", async () => {
    const record = await create();
    const path = `/${kind}s/${record.id}/watchers`;
    for (const method of ["GET", "POST", "DELETE"]) {
      await expectError(await call(emulator, path, { method, key: OTHER_KEY, account: OTHER_ACCOUNT }), 404, "Item not found.");
      await expectError(await call(emulator, `/${kind}s/999999/watchers`, { method }), 404, "Item not found.");
      await expectError(await call(emulator, `/${kind}s/x/watchers`, { method }), 404, "Item not found.");
    }
    const put = await call(emulator, path, { method: "PUT", body: {} });
    await expectError(put, 405);
    expect(put.headers.get("allow")).toBe("GET, POST, DELETE");
  });
});

describe("notifications to watchers", () => {
  it("a fixture's cluster is watched by its owner", async () => {
    expect(await read("/clusters/11/watchers")).toEqual([LEE]);
  });

  it("tells a cluster's watchers when it becomes available and when it is terminated, and no one else", async () => {
    const cluster = await newCluster("lab");
    await send("POST", `/clusters/${cluster.id}/watchers`, undefined, LEE_KEY);
    await send("DELETE", `/clusters/${cluster.id}/watchers`);
    await until(
      () => read(`/clusters/${cluster.id}`),
      (c) => c.status === "available",
    );
    await send("DELETE", `/clusters/${cluster.id}`);
    await until(
      () => read(`/clusters/${cluster.id}`),
      (c) => c.status === "terminated",
    );
    const lee = await notificationTitles(LEE_KEY);
    expect(lee.filter((title) => title.includes("'lab'"))).toEqual(["Cluster 'lab' terminated", "Cluster 'lab' available"]);
    expect((await notificationTitles()).filter((title) => title.includes("'lab'"))).toEqual([]);
  });

  it("tells a job's watchers when it completes, fails or is stopped", async () => {
    const completed = await newJob(101, 12);
    const failed = await newJob(102, 12);
    const stopped = await newJob(104, 12);
    await until(
      () => read(`/jobs/${stopped.id}`),
      (job) => job.status === "running",
    );
    await send("DELETE", `/jobs/${stopped.id}`);
    for (const job of [completed, failed, stopped]) {
      await until(
        () => read(`/jobs/${job.id}`),
        (j) => ["completed", "failed", "stopped"].includes(j.status),
      );
    }
    const notifications = (await read("/notifications?limit=100")) as ApiRecord[];
    const about = (job: ApiRecord) => notifications.filter((n) => n.title.startsWith(`Job ${job.id} `)).map((n) => [n.title, n.body]);
    expect(about(completed)).toEqual([[`Job ${completed.id} completed`, `Job ${completed.id} of package 'orders-rollup' completed.`]]);
    expect(about(failed)).toEqual([[`Job ${failed.id} failed`, `Job ${failed.id} of package 'crm-sync' failed: token expired`]]);
    expect(about(stopped)).toEqual([[`Job ${stopped.id} stopped`, `Job ${stopped.id} of package 'long-load' was stopped.`]]);
  });

  it("tells no one who stopped watching", async () => {
    const job = await newJob(101, 12);
    await send("DELETE", `/jobs/${job.id}/watchers`);
    await until(
      () => read(`/jobs/${job.id}`),
      (j) => j.status === "completed",
    );
    expect((await notificationTitles()).filter((title) => title.startsWith(`Job ${job.id} `))).toEqual([]);
  });
});
