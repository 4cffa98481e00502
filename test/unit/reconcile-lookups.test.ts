/**
 * Each kind's rule for what a create whose outcome is unknown may have made (public key,
 * connection group, cluster, job), against scripted pages of the service's lists.
 */
import { describe, expect, it } from "vitest";
import { parseSshPublicKey } from "../../contract/ssh-public-key";
import type { ClusterInputs } from "../../provider/resources/cluster/fields";
import { createdCluster } from "../../provider/resources/cluster/implementation";
import { createdGroup } from "../../provider/resources/connection-group/implementation";
import type { JobRunInputs } from "../../provider/resources/job-run/fields";
import { createdJob } from "../../provider/resources/job-run/implementation";
import { createdKey } from "../../provider/resources/public-key/implementation";
import { CLOCK_SKEW_MS } from "../../provider/resources/shared/reconcile";
import { at, BASE, reconcilerFor, scripted, SENT_AT } from "../support/reconcile";

const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG7gKqNO4LLqZGjzIULluAa6RhZbgiiS4Et9g1oNUvzH deploy";
const OTHER_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAYYpAL16innHprXNo3ZNqBBJHY9qV0IrXKVZ42zb8tS other";
const fingerprint = (line: string) => (parseSshPublicKey(line) as { ok: true; key: { fingerprint: string } }).key.fingerprint;

function keyRecord(id: number, line: string, name: string, createdAt: string) {
  return {
    id,
    name,
    fingerprint: fingerprint(line),
    comment: line.split(" ")[2] ?? "",
    created_at: createdAt,
    updated_at: createdAt,
    url: `${BASE}/user/keys/${id}`,
  };
}

describe("the public key a create may have made", () => {
  it("has the fingerprint and name asked for and was made since the request, on any page", async () => {
    const request = scripted({
      "/user/keys": { body: [keyRecord(1, OTHER_KEY, "deploy", at(0))], next: "/user/keys?offset=1" },
      "/user/keys?offset=1": { body: [keyRecord(2, KEY, "deploy", at(400))] },
    });
    expect((await createdKey.find(request, { publicKey: KEY }, SENT_AT)).map((k) => k.id)).toEqual([2]);
    expect(request.seen).toEqual(["/user/keys", "/user/keys?offset=1"]);
  });

  it("is not a key older than the request (allowing for clock skew) nor one with another name", async () => {
    const request = scripted({
      "/user/keys": { body: [keyRecord(1, KEY, "deploy", at(-CLOCK_SKEW_MS - 1))] },
    });
    expect(await createdKey.find(request, { publicKey: KEY }, SENT_AT)).toEqual([]);
    const renamed = scripted({ "/user/keys": { body: [keyRecord(3, KEY, "deploy", at(-CLOCK_SKEW_MS + 1))] } });
    expect((await createdKey.find(renamed, { publicKey: KEY }, SENT_AT)).map((k) => k.id)).toEqual([3]);
    expect(await createdKey.find(renamed, { publicKey: KEY, name: "ci" }, SENT_AT)).toEqual([]);
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
    expect((await createdGroup.find(request, { name: "etl" }, SENT_AT)).map((g) => g.id)).toEqual([3]);
  });

  it("has every field the request sent: a group of that name with another description or other connections is someone else's", async () => {
    const withDescription = { ...groupRecord(5, "etl", at(100)), description: "made by another stack" };
    const withConnection = { ...groupRecord(6, "etl", at(100)), connections: [{ id: 301, name: "pg", type: "postgres" }] };
    const request = scripted({ "/connection_groups/search?q=etl": { body: [withDescription, withConnection, groupRecord(7, "etl", at(100))] } });
    expect((await createdGroup.find(request, { name: "etl" }, SENT_AT)).map((g) => g.id)).toEqual([7]);
    const wanted = { name: "etl", description: "made by another stack", connections: [{ id: 301, type: "postgres" }] };
    expect((await createdGroup.find(request, { name: "etl", description: "made by another stack" }, SENT_AT)).map((g) => g.id)).toEqual([5]);
    expect((await createdGroup.find(request, wanted, SENT_AT)).map((g) => g.id)).toEqual([]);
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
      "/clusters?offset=2": {
        body: [clusterRecord(7), clusterRecord(6, { created_at: at(-CLOCK_SKEW_MS - 1) }), clusterRecord(5)],
        next: "/clusters?offset=5",
      },
    });
    expect((await createdCluster.find(request, inputs, SENT_AT)).map((c) => c.id)).toEqual([8, 7]);
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
    expect(createdCluster.matches(clusterRecord(1, overrides) as never, wanted, SENT_AT)).toBe(false);
  });

  it("is one with every setting asked for; an omitted name or region is the service's choice", () => {
    const full: ClusterInputs = { nodes: 1, type: "sandbox", name: "n", region: "r", description: "d", terminateOnIdle: true, timeToIdle: 600 };
    const record = clusterRecord(1, { nodes: 1, type: "sandbox", name: "n", region: "r", description: "d", terminate_on_idle: true, time_to_idle: 600 });
    expect(createdCluster.matches(record as never, full, SENT_AT)).toBe(true);
    expect(createdCluster.matches(clusterRecord(1, { name: "whatever", region: "anywhere" }) as never, inputs, SENT_AT)).toBe(true);
  });

  it("is this user's once the user is known", () => {
    const owners = reconcilerFor(0);
    expect(createdCluster.matches(clusterRecord(1, { owner_id: 71 }) as never, inputs, SENT_AT, owners)).toBe(true);
    owners.noteOwner(70);
    expect(createdCluster.matches(clusterRecord(1, { owner_id: 71 }) as never, inputs, SENT_AT, owners)).toBe(false);
    expect(createdCluster.matches(clusterRecord(1) as never, inputs, SENT_AT, owners)).toBe(true);
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
    expect((await createdJob.find(request, inputs, SENT_AT)).map((j) => j.id)).toEqual([2, 1]);
    expect((await createdJob.find(request, { clusterId: 201, packageId: 101 }, SENT_AT)).map((j) => j.id)).toEqual([]);
  });
});
