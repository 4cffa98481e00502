/**
 * A refresh of many objects of one kind reads the kind's listing, 100 a page, rather than one GET
 * each: 1,000 public keys refreshed in at most 12 calls, and 1,000 job runs in 13 in an account
 * whose 1,000 older jobs fill the listing's first pages, on both surfaces' code (the plugin here,
 * and the dynamic resources for the keys). An object deleted out of band is
 * still dropped (its own GET confirms it gone), and a drifted one still reported. And 1,000
 * packages, whose listing holds less than a package's reads (no flow, no validation): refreshed in
 * at most 12 calls while none changed, a flow changed out of band and a package a deleted
 * connection invalidated still reported, each by reading that package alone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PublicKey } from "pulumi-etl";
import { createTestStack, type TestStack } from "../support/engine";
import { ed25519PublicKeyLine } from "../support/keys";
import { startLocalService, type LocalService } from "../support/service";

const COUNT = 1000;
const KEYS = Array.from({ length: COUNT }, (_, i) => ({ id: 10_000 + i, name: `key ${i}`, publicKey: ed25519PublicKeyLine(`k${i}@example.com`).line }));
// The engine saves its state once at the end rather than after each of 2,000 steps.
const FAST_STATE = { PULUMI_SKIP_CHECKPOINTS: "true" };

const countOf = (calls: string[], prefix: string) => calls.filter((call) => call.startsWith(`GET ${prefix}`)).length;

const WAREHOUSE = { id: 3001, name: "warehouse", type: "postgres" };
const LEGACY = { id: 3002, name: "legacy", type: "postgres" };
const flowOn = (connection: number, table: string) => ({
  components: [
    { name: "rows", type: "source" as const, connection: { id: connection }, table: "orders" },
    { name: "copy", type: "destination" as const, connection: { id: WAREHOUSE.id }, table },
  ],
  edges: [{ from: "rows", to: "copy" }],
});
const PACKAGES = Array.from({ length: COUNT }, (_, i) => ({
  id: 20_000 + i,
  name: `package ${i}`,
  dataFlow: flowOn(i === 5 ? LEGACY.id : WAREHOUSE.id, `copy_${i}`),
}));

describe(`refresh of ${COUNT} packages`, { timeout: 600_000 }, () => {
  let service: LocalService;
  let test: TestStack;
  const stateOf = async (id: number) => ((await test.stack.exportStack()).deployment.resources ?? []).find((r: any) => r.id === String(id));

  beforeAll(async () => {
    service = await startLocalService({ account: { connections: [WAREHOUSE, LEGACY], packages: PACKAGES } });
    test = await createTestStack("batched-packages", async () => ({}), service, FAST_STATE, { plugin: true });
    await test.stack.import({
      resources: PACKAGES.map((pkg) => ({ type: "etl:index:Package", name: `package-${pkg.id}`, id: String(pkg.id) })),
      generateCode: false,
      protect: false,
    });
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("unchanged, are read from their listing alone: at most 12 calls", async () => {
    await service.resetRequests();
    const refreshed = await test.stack.refresh();
    const calls = await service.calls();
    console.log(`refresh of ${COUNT} packages: ${calls.length} calls`);
    expect(calls.length).toBeLessThanOrEqual(12);
    // 1,000 packages are ten pages of the listing, and nothing else.
    expect(calls).toEqual(Array.from({ length: 10 }, () => "GET /packages"));
    expect(refreshed.summary.resourceChanges).toEqual({ same: COUNT + 1 });
  });

  it("a flow changed out of band, and a package invalidated by a deleted connection, are read alone and reported", async () => {
    const [edited, invalidated] = [PACKAGES[3]!, PACKAGES[5]!];
    const newFlow = flowOn(WAREHOUSE.id, "edited_by_hand");
    expect((await service.api("PUT", `/packages/${edited.id}`, { data_flow_json: newFlow })).status).toBe(200);
    expect((await service.api("DELETE", `/connections/postgres/${LEGACY.id}`)).status).toBe(200);
    expect((await service.api("POST", `/packages/${invalidated.id}/validate`)).body.status).toBe("failed");
    await service.resetRequests();
    const refreshed = await test.stack.refresh();
    const calls = await service.calls();
    expect(calls.filter((call) => call === "GET /packages").length).toBeLessThanOrEqual(12);
    expect(calls.filter((call) => call !== "GET /packages").sort()).toEqual(
      [edited.id, invalidated.id].flatMap((id) => [`GET /packages/${id}`, `GET /packages/${id}/export`, `GET /packages/${id}/validations`]).sort(),
    );
    expect(refreshed.summary.resourceChanges?.update).toBeGreaterThanOrEqual(1);
    expect((await stateOf(edited.id)).outputs.dataFlow.components[1].table).toBe("edited_by_hand");
    expect((await stateOf(invalidated.id)).outputs.validationStatus).toBe("failed");
  });
});

describe(`refresh of ${COUNT} objects of one kind`, { timeout: 600_000 }, () => {
  let service: LocalService;
  let jobIds: string[] = [];

  beforeAll(async () => {
    service = await startLocalService({
      account: { publicKeys: KEYS, packages: [{ id: 101, name: "long", run: { seconds: 86_400 } }], clusters: [{ id: 201, name: "ready", nodes: 4 }] },
    });
    // The account's history: as many jobs again, made before the stack's, which a listing in
    // order of creation shows first.
    const runJobs = () => Promise.all(Array.from({ length: COUNT }, () => service.api("POST", "/jobs", { cluster_id: 201, package_id: 101 })));
    expect((await runJobs()).every((response) => response.status === 201)).toBe(true);
    jobIds = (await runJobs()).map((response) => String(response.body.id));
  });

  afterAll(async () => {
    await service?.emulator.close();
  });

  it("through the plugin: at most 12 calls for the keys, 13 for the job runs behind the history; one deleted out of band dropped, one drifted reported", async () => {
    const test: TestStack = await createTestStack("batched-plugin", async () => ({}), service, FAST_STATE, { plugin: true });
    try {
      await test.stack.import({
        resources: [
          ...KEYS.map((key) => ({ type: "etl:index:PublicKey", name: `key-${key.id}`, id: String(key.id) })),
          ...jobIds.map((id) => ({ type: "etl:index:JobRun", name: `job-${id}`, id })),
        ],
        generateCode: false,
        protect: false,
      });
      await service.resetRequests();
      const refreshed = await test.stack.refresh();
      const calls = await service.calls();
      console.log(
        `refresh of ${COUNT} keys and ${COUNT} job runs: ${countOf(calls, "/user/keys")} calls for the keys, ${countOf(calls, "/jobs")} for the job runs`,
      );
      expect(countOf(calls, "/user/keys")).toBeLessThanOrEqual(12);
      // One page more for the history: its first page, then the listing from the stack's oldest job.
      expect(countOf(calls, "/jobs")).toBeLessThanOrEqual(13);
      // Nothing is gone; the job runs move on their own (idle, then running), which a refresh records.
      expect(refreshed.summary.resourceChanges).not.toHaveProperty("delete");
      expect(refreshed.summary.resourceChanges?.same).toBeGreaterThanOrEqual(COUNT + 1);

      expect((await service.api("DELETE", `/user/keys/${KEYS[500]!.id}`)).status).toBeLessThan(300);
      expect((await service.api("DELETE", `/jobs/${jobIds[7]}`)).status).toBeLessThan(300);
      await service.resetRequests();
      const drifted = await test.stack.refresh();
      expect(drifted.summary.resourceChanges?.delete).toBe(1);
      expect(drifted.summary.resourceChanges?.update).toBeGreaterThanOrEqual(1);
      const job = ((await test.stack.exportStack()).deployment.resources ?? []).find((r: any) => r.id === jobIds[7]);
      expect(job.outputs.status).toMatch(/stop/);
      const after = await service.calls();
      expect(after).toContain(`GET /user/keys/${KEYS[500]!.id}`);
      expect(countOf(after, "/user/keys")).toBeLessThanOrEqual(13);
      expect(countOf(after, "/jobs")).toBeLessThanOrEqual(13);
    } finally {
      test.dispose();
    }
  });

  it("clusters behind three pages of older ones: one page of them, then the listing from the stack's oldest", async () => {
    const makeClusters = (count: number) =>
      Promise.all(Array.from({ length: count }, (_, i) => service.api("POST", "/clusters", { nodes: 1, name: `c${i}`, terminate_on_idle: false })));
    expect((await makeClusters(300)).every((response) => response.status === 201)).toBe(true);
    const clusterIds = (await makeClusters(150)).map((response) => String(response.body.id));
    const test: TestStack = await createTestStack("batched-clusters", async () => ({}), service, FAST_STATE, { plugin: true });
    try {
      await test.stack.import({
        resources: clusterIds.map((id) => ({ type: "etl:index:Cluster", name: `cluster-${id}`, id })),
        generateCode: false,
        protect: false,
      });
      await service.resetRequests();
      await test.stack.refresh();
      const calls = await service.calls();
      console.log(`refresh of ${clusterIds.length} clusters behind 300 older ones: ${countOf(calls, "/clusters")} calls`);
      // ceil(150/100) + 2, and one page of the older clusters.
      expect(countOf(calls, "/clusters")).toBeLessThanOrEqual(5);
    } finally {
      test.dispose();
    }
  });

  it("through the dynamic resources: the keys' refresh reads their listing too", async () => {
    const kept = KEYS.filter((_, i) => i !== 500);
    const test = await createTestStack(
      "batched-dynamic",
      async () => {
        for (const key of kept) new PublicKey(`key-${key.id}`, { publicKey: key.publicKey, name: key.name, importId: key.id });
      },
      service,
      FAST_STATE,
    );
    try {
      await test.stack.up();
      await service.resetRequests();
      const refreshed = await test.stack.refresh();
      const calls = await service.calls();
      console.log(`dynamic refresh of ${kept.length} keys: ${countOf(calls, "/user/keys")} calls`);
      expect(countOf(calls, "/user/keys")).toBeLessThanOrEqual(12);
      expect(refreshed.summary.resourceChanges).toEqual({ same: kept.length + 1 });
      await test.stack.refresh({ expectNoChanges: true });
    } finally {
      test.dispose();
    }
  });
});
