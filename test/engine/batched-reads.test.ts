/**
 * A refresh reads each kind from its listing, 100 objects a page, however the engine sends the
 * reads. On each surface, one `up` of 105 connections, packages, schedules and public keys (two
 * pages each, still two after the deletes; `npm run bench:refresh` reads 1,000 of every kind), then
 * refreshes with the engine's default parallelism, `--parallel 1` (each read waits for the one
 * before) and `--parallel 64`: every kind within ceil(N/100) + 2 calls besides what the objects
 * changed out of band need (a package changed is read whole: 3 calls; an object deleted, its own
 * GET, which says it is gone), and every change reported. Packages, whose listing lacks their
 * flow and validation, keep those from the state while their `updated_at` is the one recorded.
 * The account held objects of each kind before the stack (two pages of connections, packages and
 * schedules, whose listings take `since`; one of keys, whose listing does not), so the pages must
 * get past them, for one page more; the service's clock runs at speed 100 for the dynamic
 * resources and 1 for the plugin (`batched-reads-alone.test.ts` holds packages alone at the
 * other speed on each surface).
 * And, through the plugin, 105 job runs and 105 clusters in one stack, behind 400 older ones of
 * each in the account: one page of the history more than that bound, where a listing from the
 * start would take six.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RefreshOptions } from "@pulumi/pulumi/automation";
import type { ResourceKind } from "pulumi-etl/plugin";
import { createTestStack, type TestStack } from "../support/engine";
import { ed25519PublicKeyLine } from "../support/keys";
import { startTestEmulator, type Emulator } from "../support/service";
import { declare, SURFACES, type Surface } from "../support/surfaces";

/** Two pages of each kind, still two after the three packages the tests delete. */
const COUNT = 105;
// The engine saves its state once at the end rather than after each of 420 steps.
const FAST_STATE = { PULUMI_SKIP_CHECKPOINTS: "true" };

/** The kinds brought up, each with the path its reads take. */
const PATHS = { Connection: "/connections", Package: "/packages", Schedule: "/schedules", PublicKey: "/user/keys" } as const;
type Kind = keyof typeof PATHS & ResourceKind;
const KINDS = Object.keys(PATHS) as Kind[];
/** What an object changed out of band costs besides the listing: a package is read whole; the rest are in their listing. */
const CHANGED_COST: Record<Kind, number> = { Connection: 0, Package: 3, Schedule: 0, PublicKey: 0 };
/** An object deleted out of band is absent from the listing: its own GET says it is gone. */
const DELETED_COST = 1;

const range = (count: number) => Array.from({ length: count }, (_, i) => i);

/** What the account held before the stack, by kind: as many as the kind's listing can get past at no cost to the bound. */
const HISTORY: Record<Kind, number> = { Connection: 200, Package: 200, Schedule: 200, PublicKey: 100 };
const historyFixtures = () => ({
  connections: range(HISTORY.Connection).map((i) => ({
    id: i + 1,
    name: `older db ${i}`,
    type: "postgres",
    attributes: { host: `older${i}.example.com`, database: "analytics", username: "loader", password: "pw" },
  })),
  packages: range(HISTORY.Package).map((i) => ({ id: i + 1, name: `older package ${i}` })),
  schedules: range(HISTORY.Schedule).map((i) => ({ name: `older ${i}`, status: "disabled" as const, task: { packages: [{ packageId: 1 }] } })),
  publicKeys: range(HISTORY.PublicKey).map((i) => ({ name: `older key ${i}`, publicKey: ed25519PublicKeyLine(`older${i}@example.com`).line })),
});
/**
 * The account's older objects cost one page more than ceil(N/100) + 2, as the jobs' and clusters'
 * history below: the listing's first page (where `since` lets the next start at the stack's
 * oldest), or room for an object the engine reads after the start of the stack's pages though
 * made before it (with `--parallel 1`, a read made a few places out of the order of creation).
 */
const HISTORY_PAGE = 1;
/** The service's clock by surface: both speeds are met, each surface at one (the packages alone meet each surface at the other). */
const SPEED: Record<Surface, number> = { dynamic: 100, plugin: 1 };
const nameOf = (kind: Kind, i: number) => `${kind.toLowerCase()}-${i}`;
/** The one package whose flow reads from the last connection, which a test deletes out of band. */
const ON_LAST_CONNECTION = 5;

/** The stack: the packages' flows copy from the stack's connections, the schedules run its first package. */
function program(surface: Surface) {
  return async () => {
    const connections = range(COUNT).map((i) =>
      declare(surface, "Connection", nameOf("Connection", i), {
        type: "postgres",
        name: `db ${i}`,
        host: `db${i}.example.com`,
        database: "analytics",
        username: "loader",
        password: `pw-${i}`,
        testBeforeCreate: false,
      }),
    );
    const flowOf = (i: number) => ({
      components: [
        { name: "rows", type: "source", connection: { id: connections[i === ON_LAST_CONNECTION ? COUNT - 1 : 0]!.id }, table: "orders" },
        { name: "copy", type: "destination", connection: { id: connections[1]!.id }, table: `copy_${i}` },
      ],
      edges: [{ from: "rows", to: "copy" }],
    });
    const packages = range(COUNT).map((i) => declare(surface, "Package", nameOf("Package", i), { name: `package ${i}`, dataFlow: flowOf(i) }));
    for (const i of range(COUNT)) {
      declare(surface, "Schedule", nameOf("Schedule", i), {
        name: `nightly ${i}`,
        startAt: "2030-01-01T02:00:00Z",
        interval: { amount: 1, unit: "days" },
        task: { nodes: 2, packages: [{ packageId: packages[0]!.id }] },
      });
      declare(surface, "PublicKey", nameOf("PublicKey", i), { name: `key ${i}`, publicKey: ed25519PublicKeyLine(`k${i}@example.com`).line });
    }
  };
}

/** A state entry of the stack by kind and index (its outputs as the test reads them), undefined once gone. */
type Entries = (kind: Kind, i: number) => any;

/** What was done out of band to each kind before a refresh: objects changed, objects deleted. */
type Drift = Partial<Record<Kind, { changed?: number; deleted?: number }>>;

/** The calls of a refresh, each kind's against its bound; every call is one of a kind's. */
function expectWithinBound(calls: string[], counts: Record<Kind, number>, drift: Drift): void {
  const ofKind = (kind: Kind) => calls.filter((call) => call.startsWith(`GET ${PATHS[kind]}`));
  for (const kind of KINDS) {
    const { changed = 0, deleted = 0 } = drift[kind] ?? {};
    const bound = Math.ceil(counts[kind] / 100) + 2 + HISTORY_PAGE + changed * CHANGED_COST[kind] + deleted * DELETED_COST;
    expect(ofKind(kind).length, `${kind}: ${ofKind(kind).join(", ")}`).toBeLessThanOrEqual(bound);
  }
  expect(KINDS.reduce((sum, kind) => sum + ofKind(kind).length, 0)).toBe(calls.length);
}

for (const surface of SURFACES) describeSurface(surface);

function describeSurface(surface: Surface): void {
  const on = surface === "plugin" ? "plugin" : "dynamic resources";
  describe(`refresh of ${COUNT} objects of each of four kinds on the ${on}, behind older ones, the service's clock at speed ${SPEED[surface]}`, {
    timeout: 300_000,
  }, () => {
    let service: Emulator;
    let test: TestStack;
    const counts: Record<Kind, number> = { Connection: COUNT, Package: COUNT, Schedule: COUNT, PublicKey: COUNT };
    /** The state's entry of each object, by kind and index; the ids are the ones `up` recorded. */
    let entryAfterUp: Entries;
    const idOf = (kind: Kind, i: number) => entryAfterUp(kind, i)!.id as string;
    const entries = async (): Promise<Entries> => {
      const resources: Array<{ urn: string }> = (await test.stack.exportStack()).deployment.resources ?? [];
      const byName = new Map(resources.map((resource) => [resource.urn.slice(resource.urn.lastIndexOf("::") + 2), resource]));
      return (kind, i) => byName.get(nameOf(kind, i));
    };

    /** A refresh within every kind's bound, its changes as the summary gives them; counts follow the deletes. */
    async function refresh(options: RefreshOptions, drift: Drift) {
      await service.resetRequests();
      const refreshed = await test.stack.refresh(options);
      expectWithinBound(await service.calls(), counts, drift);
      for (const kind of KINDS) counts[kind] -= drift[kind]?.deleted ?? 0;
      return refreshed.summary.resourceChanges;
    }

    /** A package's description changed, and another archived (the service's delete), out of band. */
    async function changeAndDeletePackages(changed: number, deleted: number): Promise<void> {
      expect((await service.api("PUT", `/packages/${idOf("Package", changed)}`, { description: "edited by hand" })).status).toBe(200);
      expect((await service.api("DELETE", `/packages/${idOf("Package", deleted)}`)).status).toBe(200);
    }

    beforeAll(async () => {
      service = await startTestEmulator({ speed: SPEED[surface], account: historyFixtures() });
      test = await createTestStack(`batched-${surface}`, program(surface), service, FAST_STATE, { plugin: surface === "plugin" });
      await test.stack.up();
      entryAfterUp = await entries();
    }, 600_000);

    afterAll(async () => {
      test?.dispose();
      await service?.emulator.close();
    });

    it("with the default parallelism: a package's flow edited, one invalidated by a deleted connection, and an object of each kind deleted, reported", async () => {
      const flow = entryAfterUp("Package", 3).outputs.dataFlow;
      flow.components[1].table = "edited_by_hand";
      expect((await service.api("PUT", `/packages/${idOf("Package", 3)}`, { data_flow_json: flow })).status).toBe(200);
      expect((await service.api("DELETE", `/connections/postgres/${idOf("Connection", COUNT - 1)}`)).status).toBe(200);
      expect((await service.api("POST", `/packages/${idOf("Package", ON_LAST_CONNECTION)}/validate`)).body.status).toBe("failed");
      expect((await service.api("DELETE", `/packages/${idOf("Package", 4)}`)).status).toBe(200);
      expect((await service.api("DELETE", `/user/keys/${idOf("PublicKey", 7)}`)).status).toBe(200);
      expect((await service.api("PUT", `/schedules/${idOf("Schedule", 8)}`, { name: "renamed by hand" })).status).toBe(200);

      const drift = { Connection: { deleted: 1 }, Package: { changed: 2, deleted: 1 }, Schedule: { changed: 1 }, PublicKey: { deleted: 1 } };
      // The invalidated package changed in its outputs alone, which the engine's summary counts as the same.
      expect(await refresh({}, drift)).toEqual({ same: 4 * COUNT + 1 - 5, update: 2, delete: 3 });
      const entry = await entries();
      expect(entry("Package", 3).outputs.dataFlow.components[1].table).toBe("edited_by_hand");
      expect(entry("Package", ON_LAST_CONNECTION).outputs.validationStatus).toBe("failed");
      expect(entry("Schedule", 8).outputs.name).toBe("renamed by hand");
      expect([entry("Package", 4), entry("PublicKey", 7), entry("Connection", COUNT - 1)]).toEqual([undefined, undefined, undefined]);
    });

    it("with --parallel 1, each read waiting for the one before: a package changed and one deleted, reported", async () => {
      await changeAndDeletePackages(10, 11);
      expect(await refresh({ parallel: 1 }, { Package: { changed: 1, deleted: 1 } })).toEqual({ same: 4 * COUNT + 1 - 5, update: 1, delete: 1 });
      const entry = await entries();
      expect([entry("Package", 10).outputs.description, entry("Package", 11)]).toEqual(["edited by hand", undefined]);
    });

    it("with --parallel 64: a package changed and one deleted, reported", async () => {
      await changeAndDeletePackages(12, 13);
      expect(await refresh({ parallel: 64 }, { Package: { changed: 1, deleted: 1 } })).toEqual({ same: 4 * COUNT + 1 - 6, update: 1, delete: 1 });
      const entry = await entries();
      expect([entry("Package", 12).outputs.description, entry("Package", 13)]).toEqual(["edited by hand", undefined]);
    });
  });
}

const countOf = (calls: string[], prefix: string) => calls.filter((call) => call.startsWith(`GET ${prefix}`)).length;

describe("refresh through the plugin behind an account's history", { timeout: 600_000 }, () => {
  const JOBS = COUNT;
  const CLUSTERS = COUNT;
  // ceil(N/100) + 2, and one page of the history: its first page, then the listing from the stack's oldest.
  const BOUND = Math.ceil(COUNT / 100) + 2 + 1;
  /** Four pages of older jobs and clusters: a listing from the start would take more than the bound (six pages, 505 of each). */
  const OLDER = 400;
  let service: Emulator;
  let jobIds: string[] = [];
  let clusterIds: string[] = [];

  beforeAll(async () => {
    service = await startTestEmulator({
      account: { packages: [{ id: 101, name: "long", run: { seconds: 86_400 } }], clusters: [{ id: 201, name: "ready", nodes: 4 }] },
    });
    // The account's history: jobs and clusters made before the stack's, which a listing in order of creation shows first.
    const runJobs = (count: number) => Promise.all(Array.from({ length: count }, () => service.api("POST", "/jobs", { cluster_id: 201, package_id: 101 })));
    const makeClusters = (count: number) =>
      Promise.all(Array.from({ length: count }, (_, i) => service.api("POST", "/clusters", { nodes: 1, name: `c${i}`, terminate_on_idle: false })));
    expect((await runJobs(OLDER)).every((response) => response.status === 201)).toBe(true);
    expect((await makeClusters(OLDER)).every((response) => response.status === 201)).toBe(true);
    jobIds = (await runJobs(JOBS)).map((response) => String(response.body.id));
    clusterIds = (await makeClusters(CLUSTERS)).map((response) => String(response.body.id));
  });

  afterAll(async () => {
    await service?.emulator.close();
  });

  // One stack of both kinds: each kind's calls are counted apart, by the path they take.
  it(`${JOBS} job runs and ${CLUSTERS} clusters behind ${OLDER} older ones of each: at most ${BOUND} calls a kind, and a job stopped out of band recorded as pending_stoppage`, async () => {
    const test: TestStack = await createTestStack("batched-history", async () => ({}), service, FAST_STATE, { plugin: true });
    try {
      const jobs = jobIds.map((id) => ({ type: "etl:index:JobRun", name: `job-${id}`, id }));
      const clusters = clusterIds.map((id) => ({ type: "etl:index:Cluster", name: `cluster-${id}`, id }));
      await test.stack.import({ resources: [...jobs, ...clusters], generateCode: false, protect: false });
      await service.resetRequests();
      const refreshed = await test.stack.refresh();
      const calls = await service.calls();
      expect(countOf(calls, "/jobs"), calls.join(", ")).toBeLessThanOrEqual(BOUND);
      expect(countOf(calls, "/clusters"), calls.join(", ")).toBeLessThanOrEqual(BOUND);
      // Nothing is gone; the job runs move on their own (idle, then running), which a refresh records.
      expect(refreshed.summary.resourceChanges).not.toHaveProperty("delete");

      // The service's clock all but stops, so the stop stays in its first step (1 simulated second) through the refresh.
      await service.setSpeed(0.001);
      expect((await service.api("DELETE", `/jobs/${jobIds[7]}`)).status).toBeLessThan(300);
      await service.resetRequests();
      // The job's status is an output alone, which the engine's summary counts as the same: the state says it.
      await test.stack.refresh();
      const job = ((await test.stack.exportStack()).deployment.resources ?? []).find((r: any) => r.id === jobIds[7]);
      expect(job.outputs.status).toBe("pending_stoppage");
      await service.setSpeed(1);
      expect(countOf(await service.calls(), "/jobs")).toBeLessThanOrEqual(BOUND);
    } finally {
      test.dispose();
    }
  });
});
