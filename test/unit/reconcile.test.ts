/**
 * Creates whose outcome is unknown: the shared loop (adopt, send again, give up, a failed
 * lookup) and each kind's rule for what its request may have made, with scripted answers.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { BadRequestError, ConnectionError, OutcomeUnknownError, ServerError, type EtlApiError } from "../../provider/client/errors";
import type { ApiRequest, ApiResponse, RequestFn } from "../../provider/client/http";
import { findCreatedCluster, isClusterCreatedBy } from "../../provider/resources/cluster/provider";
import type { ClusterInputs } from "../../provider/resources/cluster/fields";
import { findCreatedGroup } from "../../provider/resources/connection-group/provider";
import { ResourceFailure } from "../../provider/resources/shared/failures";
import { findCreatedJob } from "../../provider/resources/job-run/provider";
import type { JobRunInputs } from "../../provider/resources/job-run/fields";
import { findCreatedKey } from "../../provider/resources/public-key/provider";
import { CLOCK_SKEW_MS, MAX_ATTEMPTS } from "../../provider/resources/shared/reconcile";
import { Reconciler } from "../../provider/resources/shared/reconciler";
import { parseSshPublicKey } from "../../contract/ssh-public-key";

const BASE = "http://service.test/acme/api";
const SENT_AT = Date.parse("2026-05-01T12:00:00.000Z");
const at = (offsetMs: number) => new Date(SENT_AT + offsetMs).toISOString();
const request0 = { method: "POST", url: `${BASE}/x`, headers: {} };

const dropped = () => new OutcomeUnknownError(new ConnectionError({ status: 0, request: request0, serviceMessage: "socket hang up" }));
const answered500 = () => new ServerError({ status: 500, request: request0, serviceMessage: "Internal server error." });

/** Answers GETs from a table of path+query to pages; records every request. */
function scripted(pages: Record<string, { body: unknown[]; next?: string }>): RequestFn & { seen: string[] } {
  const seen: string[] = [];
  const fn = (async (req: ApiRequest): Promise<ApiResponse> => {
    const url = req.url ?? `${BASE}${req.path}${queryOf(req.query)}`;
    const key = url.slice(BASE.length);
    seen.push(key);
    const page = pages[key];
    if (page === undefined) throw new Error(`unexpected request ${key}`);
    const headers: Record<string, string> = page.next === undefined ? {} : { link: `<${BASE}${page.next}>; rel="next"` };
    return { status: 200, headers, body: page.body, url };
  }) as RequestFn & { seen: string[] };
  fn.seen = seen;
  return fn;
}

function queryOf(query: Record<string, string | number | undefined> | undefined): string {
  const entries = Object.entries(query ?? {}).filter(([, v]) => v !== undefined) as [string, string | number][];
  return entries.length === 0 ? "" : `?${new URLSearchParams(entries.map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
}

const unusedRequest: RequestFn = async () => {
  throw new Error("no request expected");
};

/** A reconciler of its own per test, on a clock that moves only when it sleeps; `slept` records the sleeps. */
function reconcilerFor(patienceMs: number, lines: string[] = [], slept: number[] = [], cancelled = () => false): Reconciler {
  let now = SENT_AT;
  const clock = {
    now: () => now,
    sleep: async (ms: number) => {
      slept.push(ms);
      now += ms;
    },
  };
  return new Reconciler({ clock, patienceMs: () => patienceMs, log: (line) => lines.push(line), cancelled });
}

describe("createOnce", () => {
  const lines: string[] = [];
  const slept: number[] = [];
  // The lookups here never make a request of their own.
  const base = { kind: "widget", idOf: (r: { id: number }) => r.id, request: unusedRequest };
  let reconciler: Reconciler;
  const createOnce: Reconciler["createOnce"] = (options) => reconciler.createOnce(options);
  beforeEach(() => {
    lines.length = 0;
    slept.length = 0;
    reconciler = reconcilerFor(60_000, lines, slept);
  });

  it("returns and claims what the POST answers, without looking", async () => {
    let looked = false;
    const find = async () => {
      looked = true;
      return [];
    };
    const created = await createOnce({ ...base, send: async () => ({ id: 5 }), find });
    expect(created).toEqual({ record: { id: 5 }, adopted: false });
    expect(looked).toBe(false);
    expect(reconciler.isClaimed("widget", 5)).toBe(true);
  });

  it("adopts what a dropped POST made, with one line saying so", async () => {
    let sends = 0;
    const created = await createOnce({
      ...base,
      send: async () => {
        sends++;
        throw dropped();
      },
      find: async () => [{ id: 12 }],
    });
    expect(created).toEqual({ record: { id: 12 }, adopted: true });
    expect(sends).toBe(1);
    expect(lines).toEqual([expect.stringMatching(/^widget create: the connection dropped after sending .*; found widget 12 created by it, adopting it$/)]);
  });

  it("sends again only when nothing was made, and gives up after the last attempt", async () => {
    let sends = 0;
    const attempt = createOnce({
      ...base,
      send: async () => {
        sends++;
        throw answered500();
      },
      find: async () => [],
    });
    await expect(attempt).rejects.toThrow(ResourceFailure);
    await expect(attempt).rejects.toThrow(`sent ${MAX_ATTEMPTS} times and each time the outcome was unknown (last: the service answered 500`);
    expect(sends).toBe(MAX_ATTEMPTS);
    expect(lines.filter((l) => l.includes("sending it again"))).toHaveLength(MAX_ATTEMPTS - 1);
  });

  it("succeeds on a later attempt", async () => {
    let sends = 0;
    const created = await createOnce({
      ...base,
      send: async () => {
        if (++sends === 1) throw answered500();
        return { id: 8 };
      },
      find: async () => [],
    });
    expect(created).toEqual({ record: { id: 8 }, adopted: false });
  });

  it("passes other failures through without looking", async () => {
    const refused = new BadRequestError({ status: 400, request: request0, serviceMessage: "bad" });
    let looked = false;
    const find = async () => {
      looked = true;
      return [];
    };
    await expect(createOnce({ ...base, send: async () => Promise.reject(refused), find })).rejects.toBe(refused);
    expect(looked).toBe(false);
  });

  it("reports a failed lookup as an unknown outcome and does not send again", async () => {
    let sends = 0;
    reconciler = reconcilerFor(0, lines);
    const attempt = createOnce({
      ...base,
      send: async () => {
        sends++;
        throw dropped();
      },
      find: async () => Promise.reject(new ConnectionError({ status: 0, request: request0, serviceMessage: "ECONNRESET" }) as EtlApiError),
    });
    await expect(attempt).rejects.toThrow(/widget create: the connection dropped .* looking for the widget it may have created failed too .*ECONNRESET.*may or may not have been created/);
    expect(sends).toBe(1);
  });

  it("tries a lookup again while the service cannot answer, then adopts what it finds", async () => {
    let lookups = 0;
    const created = await createOnce({
      ...base,
      send: async () => Promise.reject(dropped()),
      find: async () => {
        if (++lookups < 3) throw new ConnectionError({ status: 0, request: request0, serviceMessage: "could not reach it (ECONNREFUSED)" });
        return [{ id: 9 }];
      },
    });
    expect(created).toEqual({ record: { id: 9 }, adopted: true });
    expect(slept).toEqual([2_000, 4_000]);
    expect(lines.filter((l) => l.includes("trying again in"))).toHaveLength(2);
  });

  it("still looks for what a create made once the deployment is cancelled, for a little while only", async () => {
    const unreachable = () => new ConnectionError({ status: 0, request: request0, serviceMessage: "could not reach it (ECONNREFUSED)" });
    let lookups = 0;
    reconciler = reconcilerFor(600_000, lines, slept, () => true);
    const found = await createOnce({
      ...base,
      send: async () => Promise.reject(dropped()),
      find: async () => {
        if (++lookups < 3) throw unreachable();
        return [{ id: 9 }];
      },
    });
    expect(found).toEqual({ record: { id: 9 }, adopted: true });
    slept.length = 0;
    const attempt = createOnce({ ...base, send: async () => Promise.reject(dropped()), find: async () => Promise.reject(unreachable()) });
    await expect(attempt).rejects.toThrow(/may or may not have been created/);
    // 2 + 4 + 8 s, and the next wait would pass the 20 s a cancelled deployment allows.
    expect(slept).toEqual([2_000, 4_000, 8_000]);
  });

  it("gives up on a lookup the service refuses (not a passing failure) at once", async () => {
    let lookups = 0;
    const attempt = createOnce({
      ...base,
      send: async () => Promise.reject(dropped()),
      find: async () => {
        lookups++;
        throw new BadRequestError({ status: 400, request: request0, serviceMessage: "bad" });
      },
    });
    await expect(attempt).rejects.toThrow(/may or may not have been created/);
    expect(lookups).toBe(1);
  });

  it("never adopts an id another create of this process holds", async () => {
    const both = [{ id: 21 }, { id: 22 }];
    const make = () => createOnce({ ...base, send: async () => Promise.reject(dropped()), find: async () => both });
    const [a, b] = await Promise.all([make(), make()]);
    expect([a.record.id, b.record.id].sort()).toEqual([21, 22]);
    const third = make();
    await expect(third).rejects.toThrow(`sent ${MAX_ATTEMPTS} times`);
  });

  it("waits for a concurrent create's answer before taking what it made", async () => {
    let answer!: (r: { id: number }) => void;
    const slow = createOnce({ ...base, send: () => new Promise<{ id: number }>((resolve) => (answer = resolve)), find: async () => [] });
    const dropping = createOnce({
      ...base,
      send: async () => {
        // The slow create's object is already listed; its answer comes later.
        setTimeout(() => answer({ id: 30 }), 20);
        throw dropped();
      },
      find: async () => [{ id: 31 }, { id: 30 }].filter((r) => r.id === 30 || r.id === 31),
    });
    const [s, d] = await Promise.all([slow, dropping]);
    expect(s.record.id).toBe(30);
    expect(d.record.id).toBe(31);
  });
});

const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG7gKqNO4LLqZGjzIULluAa6RhZbgiiS4Et9g1oNUvzH deploy";
const OTHER_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAYYpAL16innHprXNo3ZNqBBJHY9qV0IrXKVZ42zb8tS other";
const fingerprint = (line: string) => (parseSshPublicKey(line) as { ok: true; key: { fingerprint: string } }).key.fingerprint;

function keyRecord(id: number, line: string, name: string, createdAt: string) {
  return { id, name, fingerprint: fingerprint(line), comment: line.split(" ")[2] ?? "", created_at: createdAt, updated_at: createdAt, url: `${BASE}/user/keys/${id}` };
}

describe("the public key a create may have made", () => {
  it("has the fingerprint and name asked for and was made since the request, on any page", async () => {
    const request = scripted({
      "/user/keys": { body: [keyRecord(1, OTHER_KEY, "deploy", at(0))], next: "/user/keys?offset=1" },
      "/user/keys?offset=1": { body: [keyRecord(2, KEY, "deploy", at(400))] },
    });
    expect((await findCreatedKey(request, { publicKey: KEY }, SENT_AT)).map((k) => k.id)).toEqual([2]);
    expect(request.seen).toEqual(["/user/keys", "/user/keys?offset=1"]);
  });

  it("is not a key older than the request (allowing for clock skew) nor one with another name", async () => {
    const request = scripted({
      "/user/keys": { body: [keyRecord(1, KEY, "deploy", at(-CLOCK_SKEW_MS - 1))] },
    });
    expect(await findCreatedKey(request, { publicKey: KEY }, SENT_AT)).toEqual([]);
    const renamed = scripted({ "/user/keys": { body: [keyRecord(3, KEY, "deploy", at(-CLOCK_SKEW_MS + 1))] } });
    expect((await findCreatedKey(renamed, { publicKey: KEY }, SENT_AT)).map((k) => k.id)).toEqual([3]);
    expect(await findCreatedKey(renamed, { publicKey: KEY, name: "ci" }, SENT_AT)).toEqual([]);
  });
});

function groupRecord(id: number, name: string, createdAt: string) {
  return {
    id,
    name,
    description: null,
    account_id: 7,
    modified_by: { name: "T", email: "t@example.com" },
    connections: [],
    created_at: createdAt,
    updated_at: createdAt,
  };
}

describe("the connection group a create may have made", () => {
  it("has exactly the name (the search also finds names containing it) and was made since the request", async () => {
    const request = scripted({
      "/connection_groups/search?q=etl": {
        body: [groupRecord(1, "etl-old", at(100)), groupRecord(2, "ETL", at(100))],
        next: "/connection_groups/search?q=etl&offset=2",
      },
      "/connection_groups/search?q=etl&offset=2": { body: [groupRecord(3, "etl", at(100)), groupRecord(4, "etl", at(-CLOCK_SKEW_MS - 5))] },
    });
    expect((await findCreatedGroup(request, { name: "etl" }, SENT_AT)).map((g) => g.id)).toEqual([3]);
  });

  it("has every field the request sent: a group of that name with another description or other connections is someone else's", async () => {
    const withDescription = { ...groupRecord(5, "etl", at(100)), description: "made by another stack" };
    const withConnection = { ...groupRecord(6, "etl", at(100)), connections: [{ id: 301, name: "pg", type: "postgres" }] };
    const request = scripted({ "/connection_groups/search?q=etl": { body: [withDescription, withConnection, groupRecord(7, "etl", at(100))] } });
    expect((await findCreatedGroup(request, { name: "etl" }, SENT_AT)).map((g) => g.id)).toEqual([7]);
    const wanted = { name: "etl", description: "made by another stack", connections: [{ id: 301, type: "postgres" }] };
    expect((await findCreatedGroup(request, { name: "etl", description: "made by another stack" }, SENT_AT)).map((g) => g.id)).toEqual([5]);
    expect((await findCreatedGroup(request, wanted, SENT_AT)).map((g) => g.id)).toEqual([]);
  });
});

function clusterRecord(id: number, overrides: Record<string, unknown> = {}) {
  return {
    id,
    name: `cluster-${id}`,
    description: "",
    status: "pending",
    type: "production",
    nodes: 2,
    region: "us-east-1",
    terminate_on_idle: false,
    time_to_idle: 3600,
    created_at: at(200),
    updated_at: at(200),
    available_since: null,
    idle_since: null,
    terminated_at: null,
    running_jobs_count: 0,
    queued_jobs_count: 0,
    owner_id: 70,
    url: `${BASE}/clusters/${id}`,
    html_url: `http://service.test/clusters/${id}`,
    ...overrides,
  };
}

describe("the cluster a create may have made", () => {
  const inputs: ClusterInputs = { nodes: 2 };
  const first = "/clusters?status=all&sort=created&direction=desc";

  it("reads newest first only down to the window, across pages", async () => {
    const request = scripted({
      [first]: { body: [clusterRecord(9, { nodes: 3 }), clusterRecord(8)], next: "/clusters?offset=2" },
      "/clusters?offset=2": { body: [clusterRecord(7), clusterRecord(6, { created_at: at(-CLOCK_SKEW_MS - 1) }), clusterRecord(5)], next: "/clusters?offset=5" },
    });
    expect((await findCreatedCluster(request, inputs, SENT_AT)).map((c) => c.id)).toEqual([8, 7]);
    expect(request.seen).toEqual([first, "/clusters?offset=2"]);
  });

  it.each<[string, Record<string, unknown>, ClusterInputs]>([
    ["terminated", { status: "terminated" }, inputs],
    ["terminating", { status: "pending_terminate" }, inputs],
    ["another type", { type: "sandbox" }, inputs],
    ["other nodes", { nodes: 4 }, inputs],
    ["another name", { name: "b" }, { ...inputs, name: "a" }],
    ["another region", { region: "eu-west-1" }, { ...inputs, region: "us-east-1" }],
    ["a description when none is asked", { description: "x" }, inputs],
    ["terminate on idle", { terminate_on_idle: true }, inputs],
    ["another time to idle", { time_to_idle: 600 }, { ...inputs, timeToIdle: 900 }],
    ["made before the request", { created_at: at(-CLOCK_SKEW_MS - 1) }, inputs],
  ])("is not one %s", (_what, overrides, wanted) => {
    expect(isClusterCreatedBy(clusterRecord(1, overrides) as never, wanted, SENT_AT)).toBe(false);
  });

  it("is one with every setting asked for; an omitted name or region is the service's choice", () => {
    const full: ClusterInputs = { nodes: 1, type: "sandbox", name: "n", region: "r", description: "d", terminateOnIdle: true, timeToIdle: 600 };
    const record = clusterRecord(1, { nodes: 1, type: "sandbox", name: "n", region: "r", description: "d", terminate_on_idle: true, time_to_idle: 600 });
    expect(isClusterCreatedBy(record as never, full, SENT_AT)).toBe(true);
    expect(isClusterCreatedBy(clusterRecord(1, { name: "whatever", region: "anywhere" }) as never, inputs, SENT_AT)).toBe(true);
  });

  it("is this user's once the user is known", () => {
    const owners = reconcilerFor(0);
    expect(isClusterCreatedBy(clusterRecord(1, { owner_id: 71 }) as never, inputs, SENT_AT, owners)).toBe(true);
    owners.noteOwner(70);
    expect(isClusterCreatedBy(clusterRecord(1, { owner_id: 71 }) as never, inputs, SENT_AT, owners)).toBe(false);
    expect(isClusterCreatedBy(clusterRecord(1) as never, inputs, SENT_AT, owners)).toBe(true);
  });
});

function jobRecord(id: number, overrides: Record<string, unknown> = {}) {
  return {
    id,
    status: "idle",
    owner_id: 70,
    progress: 0,
    outputs_count: 0,
    outputs: [],
    variables: { region: "eu" },
    dynamic_variables: {},
    started_at: null,
    created_at: at(100),
    failed_at: null,
    completed_at: null,
    updated_at: at(100),
    cluster_id: 201,
    package_id: 101,
    errors: null,
    runtime_in_seconds: 0,
    url: `${BASE}/jobs/${id}`,
    html_url: "h",
    log_url: null,
    creator: { type: "user", display_name: "T", id: 70, url: "u" },
    package: { id: 101, name: "p", url: "u" },
    cluster: { id: 201, name: "c", url: "u" },
    ...overrides,
  };
}

describe("the job a run may have made", () => {
  const inputs: JobRunInputs = { clusterId: 201, packageId: 101, variables: { region: "eu" } };
  const since = new Date(SENT_AT - CLOCK_SKEW_MS).toISOString();
  const first = `/jobs?package_id=101&since=${encodeURIComponent(since)}&status=all&sort=created&direction=desc`;

  it("is asked for by package and window, and has the cluster and both sets of variables", async () => {
    const request = scripted({
      [first]: {
        body: [
          jobRecord(5, { cluster_id: 202 }),
          jobRecord(4, { variables: { region: "us" } }),
          jobRecord(3, { dynamic_variables: { day: "today" } }),
          jobRecord(2),
        ],
        next: "/jobs?offset=4",
      },
      "/jobs?offset=4": { body: [jobRecord(1)] },
    });
    expect((await findCreatedJob(request, inputs, SENT_AT)).map((j) => j.id)).toEqual([2, 1]);
    expect((await findCreatedJob(request, { clusterId: 201, packageId: 101 }, SENT_AT)).map((j) => j.id)).toEqual([]);
  });
});
