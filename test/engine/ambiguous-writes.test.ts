/**
 * Creates whose outcome is unknown, against the emulator with faults injected on exactly
 * the create's POST: `reset_after` (applied, then the connection drops) must end in the object
 * the POST made being adopted, `500` (not applied) in one sent again; either way exactly one
 * object exists and the resource's id is its id. The providers' `create` is called directly (the
 * code the engine runs; a connection's create without its settings test, whose POST would take
 * the fault); every kind's dropped create through a whole `up` of the real engine, on both
 * surfaces, is in ambiguous-creates.test.ts.
 *
 * Faults are chosen by the service's seeded generator: a seed whose draws fault the first
 * requests and none of the next ones puts the fault on the POST alone, since the create sends
 * nothing before it.
 */
import { generateKeyPairSync } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FaultInjector, type FaultKind } from "../../emulator/faults";
import type { OperationContext } from "../../provider/context";
import { contextWith } from "../support/context";
import { clusterImplementation } from "../../provider/resources/cluster/implementation";
import { connectionGroupImplementation } from "../../provider/resources/connection-group/implementation";
import { connectionImplementation } from "../../provider/resources/connection/implementation";
import { memberImplementation } from "../../provider/resources/member/implementation";
import { jobRunImplementation } from "../../provider/resources/job-run/implementation";
import { publicKeyImplementation } from "../../provider/resources/public-key/implementation";
import { startTestEmulator, type Emulator } from "../support/service";
import { READY_CLUSTER_STATUSES } from "../../contract/vocabularies";

const RATE = 0.5;
/** Requests after the faulted ones that must not fault: the lookup's pages and a second POST. */
const CLEAN_AFTER = 8;

/** A seed whose first `faulted` requests fault and whose next `CLEAN_AFTER` do not. */
function seedFaultingFirst(faulted: number): number {
  for (let seed = 1; ; seed++) {
    const injector = new FaultInjector();
    injector.configure({ rate: RATE, kinds: ["500"], seed, holdMs: 0 });
    const draws = Array.from({ length: faulted + CLEAN_AFTER }, () => injector.decide("GET") !== undefined);
    if (draws.every((faults, index) => faults === index < faulted)) return seed;
  }
}

function ed25519Line(comment: string): string {
  const raw = generateKeyPairSync("ed25519").publicKey.export({ format: "der", type: "spki" }).subarray(-32);
  const field = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
  return `ssh-ed25519 ${Buffer.concat([field(Buffer.from("ssh-ed25519")), field(raw)]).toString("base64")} ${comment}`;
}

const PACKAGE = { id: 101, name: "ok", run: { seconds: 60, outcome: "completed" as const, outputs: [{ name: "out", records: 10 }] } };
/** A package whose job runs a simulated day: at the service's speed it is still running when stopped. */
const LONG_PACKAGE = { id: 102, name: "long", run: { seconds: 86_400, outcome: "completed" as const, outputs: [{ name: "out", records: 10 }] } };
const CLUSTER = { id: 201, name: "ready", nodes: 2 };
const CONNECTION = { id: 302, name: "lake", type: "s3" };

describe("creates whose outcome is unknown", { timeout: 120_000 }, () => {
  let service: Emulator;
  const lines: string[] = [];
  const originalLog = console.log;

  const control = async (method: string, body?: unknown) => {
    const response = await fetch(`${service.url}/_emulator/faults`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status).toBe(200);
  };
  /** Faults the next `count` API requests with `kind`, and none of the few after them. */
  const faultNext = (kind: FaultKind, count = 1) => control("PUT", { rate: RATE, kinds: [kind], seed: seedFaultingFirst(count) });
  const faultsOff = () => control("DELETE");
  const posts = async (path: string) => (await service.writeRequests()).filter((r) => r.method === "POST" && r.path.endsWith(path));
  const table = async (name: string) => (await service.state()).accounts[0][name] as Array<{ id: number; [field: string]: unknown }>;

  let ctx: OperationContext;

  beforeAll(async () => {
    service = await startTestEmulator({ speed: 200, account: { packages: [PACKAGE, LONG_PACKAGE], clusters: [CLUSTER], connections: [CONNECTION] } });
    // No retries of reads either: the lookup's own failure is what one test is about.
    const settings: Record<string, string> = {
      "etl:apiUrl": service.url,
      "etl:accountId": service.accountId,
      "etl:apiKey": service.apiKey,
      "etl:maxRetries": "0",
    };
    ctx = contextWith(settings);
    console.log = (...parts: unknown[]) => void lines.push(parts.join(" "));
  });

  afterEach(async () => {
    await faultsOff();
    lines.length = 0;
  });

  afterAll(async () => {
    console.log = originalLog;
    await service?.emulator.close();
  });

  describe.each<[FaultKind, string]>([
    ["reset_after", "adopts what the POST made"],
    ["500", "finds nothing and sends again"],
  ])("%s on the POST: the create %s", (kind) => {
    const adopts = kind === "reset_after";
    const expectedPosts = adopts ? 1 : 2;

    it("PublicKey", async () => {
      const before = (await table("publicKeys")).length;
      await service.resetRequests();
      await faultNext(kind);
      const { id } = await publicKeyImplementation.create(ctx, { publicKey: ed25519Line(`k-${kind}`) });
      const keys = await table("publicKeys");
      expect(keys).toHaveLength(before + 1);
      expect(keys.at(-1)!.id).toBe(Number(id));
      expect(await posts("/user/keys")).toHaveLength(expectedPosts);
      expect(lines.join("\n")).toMatch(adopts ? `found public key ${id} created by it, adopting it` : "no public key was created by it, sending it again");
    });

    it("ConnectionGroup, brought to the inputs", async () => {
      await service.resetRequests();
      await faultNext(kind);
      const { id, outs } = await connectionGroupImplementation.create(ctx, { name: `group-${kind}`, description: "d", connections: [{ id: 302, type: "s3" }] });
      const groups = (await table("connectionGroups")).filter((g) => g.name === `group-${kind}`);
      expect(groups.map((g) => g.id)).toEqual([Number(id)]);
      expect(outs!.connections.map((c) => c.id)).toEqual([302]);
      expect(outs!.description).toBe("d");
      expect(await posts("/connection_groups")).toHaveLength(expectedPosts);
    });

    it("Cluster", async () => {
      const before = (await table("clusters")).length;
      await service.resetRequests();
      await faultNext(kind);
      const { id, outs } = await clusterImplementation.create(ctx, { nodes: 1, type: "sandbox", name: `c-${kind}`, timeoutSeconds: 120 });
      const clusters = await table("clusters");
      expect(clusters).toHaveLength(before + 1);
      expect(clusters.at(-1)!.id).toBe(Number(id));
      expect(READY_CLUSTER_STATUSES).toContain(outs!.status);
      expect(await posts("/clusters")).toHaveLength(expectedPosts);
    });

    it("Member", async () => {
      const email = `invited-${kind}@example.com`;
      await service.resetRequests();
      await faultNext(kind);
      const { id } = await memberImplementation.create(ctx, { email, role: "admin" });
      const { body: members } = await service.api("GET", `/members?email=${encodeURIComponent(email)}`);
      expect(members.map((m: { id: number; role: string }) => [m.id, m.role])).toEqual([[Number(id), "admin"]]);
      expect(await posts("/members")).toHaveLength(expectedPosts);
    });

    it("Connection", async () => {
      const name = `warehouse-${kind}`;
      await service.resetRequests();
      await faultNext(kind);
      const inputs = { type: "postgres" as const, name, host: "db.example.com", username: "etl", password: "pw", testBeforeCreate: false };
      const { id, outs } = await connectionImplementation.create(ctx, inputs);
      const { body: all } = await service.api("GET", "/connections?type=postgres");
      expect(all.filter((c: { name: string }) => c.name === name).map((c: { id: number }) => c.id)).toEqual([Number(id)]);
      expect(outs).toMatchObject({ port: 5432, password: "pw" });
      expect(await posts("/connections/postgres")).toHaveLength(expectedPosts);
    });

    it("JobRun", async () => {
      const before = (await table("jobs")).length;
      await service.resetRequests();
      await faultNext(kind);
      const variables = { run: kind };
      const { id } = await jobRunImplementation.create(ctx, { clusterId: 201, packageId: 101, variables, waitForCompletion: false });
      const jobs = await table("jobs");
      expect(jobs).toHaveLength(before + 1);
      expect(jobs.at(-1)!.id).toBe(Number(id));
      expect(await posts("/jobs")).toHaveLength(expectedPosts);
    });
  });

  it("a lookup that fails too leaves the outcome unknown: no guess, no second POST", async () => {
    await service.resetRequests();
    await control("PUT", { rate: 1, kinds: ["reset_after"], seed: 1 });
    const name = "group-unknown";
    await expect(connectionGroupImplementation.create(ctx, { name })).rejects.toThrow(
      /^connection group create: the connection dropped after sending .*, and looking for the connection group it may have created failed too .*: the connection group may or may not have been created/,
    );
    await faultsOff();
    expect((await table("connectionGroups")).filter((g) => g.name === name)).toHaveLength(1);
    expect(await posts("/connection_groups")).toHaveLength(1);
  });

  it("deletes already applied succeed: a second delete of a public key, a connection group, a cluster and a running job is a no-op", async () => {
    const key = await publicKeyImplementation.create(ctx, { publicKey: ed25519Line("twice") });
    const group = await connectionGroupImplementation.create(ctx, { name: "deleted-twice" });
    const cluster = await clusterImplementation.create(ctx, { nodes: 1, type: "sandbox", timeoutSeconds: 120 });
    for (let round = 0; round < 2; round++) {
      await publicKeyImplementation.delete(ctx, key.id, key.outs!);
      await connectionGroupImplementation.delete(ctx, group.id, group.outs!);
      await clusterImplementation.delete(ctx, cluster.id, cluster.outs!);
    }
    const job = await jobRunImplementation.create(ctx, {
      clusterId: 201,
      packageId: LONG_PACKAGE.id,
      variables: { run: "stop-twice" },
      waitForCompletion: false,
    });
    for (let round = 0; round < 2; round++) await jobRunImplementation.delete(ctx, job.id, { ...job.outs!, status: "running" });
    expect((await table("jobs")).find((j) => j.id === Number(job.id))?.status).toBe("stopped");
    const state = (await service.state()).accounts[0];
    expect(state.publicKeys.some((k: { id: number }) => k.id === Number(key.id))).toBe(false);
    expect(state.connectionGroups.some((g: { id: number }) => g.id === Number(group.id))).toBe(false);
    expect(state.clusters.find((c: { id: number }) => c.id === Number(cluster.id)).status).toBe("terminated");
  });

  it("a job that finished before its delete is left completed, and the delete succeeds", async () => {
    const job = await jobRunImplementation.create(ctx, { clusterId: 201, packageId: 101, variables: { run: "finished-first" }, waitForCompletion: true });
    const statusOf = async () => (await table("jobs")).find((j) => j.id === Number(job.id))?.status;
    expect(await statusOf()).toBe("completed");
    await jobRunImplementation.delete(ctx, job.id, job.outs!);
    await jobRunImplementation.delete(ctx, job.id, job.outs!);
    expect(await statusOf()).toBe("completed");
  });

  it("two identical JobRuns whose POSTs both dropped each adopt a different job", async () => {
    const before = (await table("jobs")).length;
    await service.resetRequests();
    await faultNext("reset_after", 2);
    const inputs = { clusterId: 201, packageId: 101, variables: { run: "twin" }, waitForCompletion: false };
    const [a, b] = await Promise.all([jobRunImplementation.create(ctx, inputs), jobRunImplementation.create(ctx, inputs)]);
    const jobs = await table("jobs");
    expect(jobs).toHaveLength(before + 2);
    expect([a.id, b.id].map(Number).sort()).toEqual(
      jobs
        .slice(-2)
        .map((j) => j.id)
        .sort(),
    );
    expect(await posts("/jobs")).toHaveLength(2);
  });
});
