import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Fixtures, RunningEmulator } from "../../../emulator";
import {
  CLUSTER_FIELDS,
  CLUSTER_STATUSES,
  clusterRecord,
  createCluster,
  getCluster,
  terminateCluster,
  updateCluster,
  type ClusterRecord,
} from "../../../provider/api/clusters";
import type { RequestFn } from "../../../provider/client/http";
import { NotFoundError, ValidationError } from "../../../provider/client/errors";
import { ACCOUNT, call, DANA_KEY, expectError, LEE_KEY, readJson, startWithClient, testFixtures } from "../helpers";

function fixtures(): Fixtures {
  const [acme, globex] = testFixtures().accounts;
  return {
    accounts: [
      {
        ...acme!,
        clusters: [
          { id: 11, name: "main", description: "Production work", nodes: 2 },
          { id: 12, name: "play", type: "sandbox" },
          { id: 13, name: "old", status: "terminated" },
          { id: 14, name: "spare", status: "idle", nodes: 3 },
          { id: 15, name: "to-scale", nodes: 1 },
          { id: 16, name: "to-terminate", nodes: 1 },
        ],
      },
      { ...globex!, clusters: [{ id: 91, name: "globex-cluster" }] },
    ],
  };
}

let emulator: RunningEmulator;
let dana: RequestFn;

// At real speed nothing a test creates moves on before the test has looked at it.
beforeAll(async () => {
  ({ emulator, dana } = await startWithClient(fixtures()));
});

afterAll(() => emulator.close());

function expectCluster(body: unknown): ClusterRecord {
  const cluster = clusterRecord.parse(body);
  expect(Object.keys(body as object).sort()).toEqual([...CLUSTER_FIELDS].sort());
  expect(CLUSTER_STATUSES).toContain(cluster.status);
  expect(cluster.url).toBe(`${emulator.url}/${ACCOUNT}/api/clusters/${cluster.id}`);
  expect(cluster.html_url).toBe(`${emulator.url}/${ACCOUNT}/clusters/${cluster.id}`);
  return cluster;
}

function post(body: unknown, key = DANA_KEY): Promise<Response> {
  return call(emulator, "/clusters", { method: "POST", body, key });
}

describe("POST /clusters", () => {
  it("creates a pending cluster with the documented defaults, owned by the caller", async () => {
    const response = await post({ nodes: 2 }, LEE_KEY);
    expect(response.status).toBe(201);
    const cluster = expectCluster(await readJson(response));
    expect(cluster).toMatchObject({
      name: `cluster-${cluster.id}`,
      description: "",
      status: "pending",
      type: "production",
      nodes: 2,
      region: "us-east-1",
      terminate_on_idle: false,
      time_to_idle: 3600,
      available_since: null,
      idle_since: null,
      terminated_at: null,
      running_jobs_count: 0,
      queued_jobs_count: 0,
      owner_id: 2,
    });
  });

  it("takes every documented field", async () => {
    const body = { nodes: 1, type: "sandbox", name: "try", description: "d", terminate_on_idle: true, time_to_idle: 600, region: "eu-west-1" };
    const cluster = expectCluster(await readJson(await post(body)));
    expect(cluster).toMatchObject(body);
  });

  it("measures a name in characters, as preview does: 255 emoji are a name of 255", async () => {
    const cluster = expectCluster(await readJson(await post({ nodes: 1, name: "😀".repeat(255) })));
    expect(cluster.name).toBe("😀".repeat(255));
  });

  it("is created through the provider's createCluster", async () => {
    const cluster = await createCluster(dana, { nodes: 4, name: "from-provider" });
    expect(cluster).toMatchObject({ nodes: 4, name: "from-provider", status: "pending" });
    expect((await getCluster(dana, cluster.id)).name).toBe("from-provider");
  });

  it.each([
    [{ nodes: 2, type: "sandbox" }, /nodes must be 1 for a sandbox cluster/],
    [{ nodes: 1, terminate_on_idle: true, time_to_idle: 299 }, /time_to_idle must be an integer between 300 and 86400/],
    [{ nodes: 1, description: 5 }, /description must be a string/],
    [{ nodes: 1, region: " " }, /region must not be blank/],
  ])("answers 422 to %j", async (body, message) => {
    await expectError(await post(body), 422, message);
  });
});

describe("malformed cluster requests", () => {
  it.each<[string, string, unknown, number, RegExp]>([
    ["POST", "/clusters", [], 400, /^Request body must be a JSON object\.$/],
    ["POST", "/clusters", "nodes=1", 400, /^Request body must be a JSON object\.$/],
    ["POST", "/clusters", {}, 422, /^nodes is required$/],
    ["POST", "/clusters", { nodes: 0 }, 422, /nodes must be an integer between 1 and 100/],
    ["POST", "/clusters", { nodes: 101 }, 422, /nodes must be an integer between 1 and 100/],
    ["POST", "/clusters", { nodes: "2" }, 422, /nodes must be an integer between 1 and 100/],
    ["POST", "/clusters", { nodes: 1.5 }, 422, /nodes must be an integer between 1 and 100/],
    ["POST", "/clusters", { nodes: 1, type: "huge" }, 422, /type must be one of production, sandbox/],
    ["POST", "/clusters", { nodes: 1, colour: "red" }, 422, /^colour is not a known field$/],
    ["POST", "/clusters", { nodes: 1, name: "" }, 422, /name must not be blank/],
    ["POST", "/clusters", { nodes: 1, name: "😀".repeat(256) }, 422, /^name must be at most 255 characters$/],
    ["POST", "/clusters", { nodes: 1, terminate_on_idle: "yes" }, 422, /terminate_on_idle must be a boolean/],
    ["POST", "/clusters", { nodes: 1, time_to_idle: 86_401 }, 422, /time_to_idle must be an integer between 300 and 86400/],
    ["PUT", "/clusters/11", { nodes: 0, size: 3 }, 422, /nodes must be an integer.*; size is not a known field$/],
    ["PUT", "/clusters/11", null, 400, /^Request body must be a JSON object\.$/],
    ["GET", "/clusters?status=on", undefined, 400, /status must be all or one of pending, creating/],
    ["GET", "/clusters?sort=size", undefined, 400, /sort must be one of created, updated, name/],
    ["GET", "/clusters?limit=101", undefined, 400, /limit must be an integer between 1 and 100/],
    ["GET", "/clusters?since=yesterday", undefined, 400, /since must be an ISO 8601 date-time/],
  ])("%s %s %j answers %i", async (method, path, body, status, message) => {
    await expectError(await call(emulator, path, { method, body }), status, message);
  });
});

describe("GET /clusters and /clusters/{id}", () => {
  it("answers a fixture cluster as settled", async () => {
    const main = expectCluster(await readJson(await call(emulator, "/clusters/11")));
    expect(main).toMatchObject({ name: "main", description: "Production work", status: "available", nodes: 2 });
    expect(main.available_since).not.toBeNull();
    const spare = expectCluster(await readJson(await call(emulator, "/clusters/14")));
    expect(spare.status).toBe("idle");
    expect(spare.idle_since).not.toBeNull();
    const old = expectCluster(await readJson(await call(emulator, "/clusters/13")));
    expect(old.terminated_at).not.toBeNull();
  });

  it.each([["/clusters/999"], ["/clusters/x"], ["/clusters/91"]])("answers 404 Item not found. for %s", async (path) => {
    await expectError(await call(emulator, path), 404, "Item not found.");
  });

  it("filters by status", async () => {
    const response = await call(emulator, "/clusters?status=terminated");
    expect(response.status).toBe(200);
    expect(((await readJson(response)) as unknown[]).map((c) => expectCluster(c).id)).toEqual([13]);
    const idle = (await readJson(await call(emulator, "/clusters?status=idle"))) as { id: number }[];
    expect(idle.map((c) => c.id)).toEqual([14]);
  });

  it("lists with since the clusters made at or after that time, and keeps since in its links", async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    const made = expectCluster(await readJson(await post({ nodes: 1, name: "made later" })));
    expect((await post({ nodes: 1, name: "made last" })).status).toBe(201);
    const all = ((await readJson(await call(emulator, "/clusters?status=all&direction=asc"))) as unknown[]).map(expectCluster);
    const since = `/clusters?status=all&direction=asc&since=${encodeURIComponent(made.created_at)}`;
    const listed = ((await readJson(await call(emulator, since))) as unknown[]).map(expectCluster);
    expect(listed.map((c) => c.id)).toContain(made.id);
    expect(listed.map((c) => c.id)).toEqual(all.filter((c) => c.created_at >= made.created_at).map((c) => c.id));
    expect(listed.length).toBeLessThan(all.length);
    const paged = await call(emulator, `${since}&limit=1`);
    expect(paged.headers.get("link") ?? "").toContain(`since=${encodeURIComponent(made.created_at)}`);
  });

  it("walks the account's clusters through Link rel=next, and nothing of another account", async () => {
    const seen: number[] = [];
    let path: string | undefined = "/clusters?limit=2";
    while (path !== undefined) {
      const response = await call(emulator, path);
      seen.push(...((await readJson(response)) as unknown[]).map((c) => expectCluster(c).id));
      path = /<([^>]+)>; rel="next"/.exec(response.headers.get("link") ?? "")?.[1]?.slice(`${emulator.url}/${ACCOUNT}/api`.length);
    }
    expect(seen.slice(0, 6)).toEqual([11, 12, 13, 14, 15, 16]);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).not.toContain(91);
  });
});

describe("PUT /clusters/{id}", () => {
  it("changes names and settings without touching the status", async () => {
    const response = await call(emulator, "/clusters/11", { method: "PUT", body: { name: "main-2", description: null, time_to_idle: 900 } });
    expect(response.status).toBe(200);
    expect(expectCluster(await readJson(response))).toMatchObject({ name: "main-2", description: "", time_to_idle: 900, status: "available" });
  });

  it("puts a ready cluster through scaling when nodes change", async () => {
    const cluster = await updateCluster(dana, 15, { nodes: 3 });
    expect(cluster).toMatchObject({ nodes: 3, status: "scaling" });
  });

  it("accepts type and region when they are unchanged", async () => {
    const response = await call(emulator, "/clusters/12", { method: "PUT", body: { type: "sandbox", region: "us-east-1", nodes: 1 } });
    expect(response.status).toBe(200);
    expect(expectCluster(await readJson(response)).status).toBe("available");
  });

  it.each([
    ["/clusters/11", { type: "sandbox" }, /type cannot be changed/],
    ["/clusters/11", { region: "eu-west-1" }, /region cannot be changed/],
    ["/clusters/12", { nodes: 2 }, /nodes must be 1 for a sandbox cluster/],
    ["/clusters/13", { name: "revived" }, /cluster 13 is terminated and cannot be updated/],
  ])("answers 422 to PUT %s %j", async (path, body, message) => {
    await expectError(await call(emulator, path, { method: "PUT", body }), 422, message);
  });

  it("answers 404 for a cluster of another account", async () => {
    await expectError(await call(emulator, "/clusters/91", { method: "PUT", body: { name: "x" } }), 404, "Item not found.");
    await expect(updateCluster(dana, 999, { name: "x" })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("DELETE /clusters/{id}", () => {
  it("starts termination, and asking again changes nothing", async () => {
    const first = await terminateCluster(dana, 16);
    expect(first.status).toBe("pending_terminate");
    expect(first.terminated_at).toBeNull();
    const again = await call(emulator, "/clusters/16", { method: "DELETE" });
    expect(again.status).toBe(200);
    expect(expectCluster(await readJson(again))).toMatchObject({ status: "pending_terminate", updated_at: first.updated_at });
  });

  it("answers 422 for a terminated cluster and 404 for an unknown one", async () => {
    await expectError(await call(emulator, "/clusters/13", { method: "DELETE" }), 422, "cluster 13 is already terminated");
    await expect(terminateCluster(dana, 13)).rejects.toBeInstanceOf(ValidationError);
    await expectError(await call(emulator, "/clusters/91", { method: "DELETE" }), 404, "Item not found.");
  });
});
