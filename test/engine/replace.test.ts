/**
 * `pulumi up --replace <urn>` for every resource kind: a forced replacement makes a new object
 * and deletes the old one, in the order the service allows (a key or a group name it holds only
 * once goes first), and state and service agree afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cluster, ConnectionGroup, JobRun, PublicKey } from "pulumi-etl";
import { createTestStack, type TestStack } from "../support/engine";
import { startLocalService, type LocalService } from "../support/service";
import { freshEd25519Key } from "../support/soak";

const PACKAGE = { id: 101, name: "quick", run: { seconds: 2, outcome: "completed" as const, outputs: [{ name: "out", records: 1 }] } };
const READY_CLUSTER = { id: 201, name: "ready", nodes: 1 };
const KEY = freshEd25519Key("replace@test");

describe("forced replacement (--replace) of each kind", { timeout: 300_000 }, () => {
  let service: LocalService;
  let test: TestStack;
  const urns: Record<string, string> = {};

  const account = async () => (await service.state()).accounts[0];
  const idInState = async (name: string) =>
    ((await test.stack.exportStack()).deployment.resources ?? []).find((r: { urn: string }) => r.urn.endsWith(`::${name}`))?.id as string;

  /** `pulumi up --replace <urn>` of one resource; its id before and after. */
  async function forceReplacement(name: string) {
    const before = await idInState(name);
    const up = await test.stack.up({ replace: [urns[name]!] });
    return { before, after: await idInState(name), up };
  }

  beforeAll(async () => {
    service = await startLocalService({ speed: 50, account: { packages: [PACKAGE], clusters: [READY_CLUSTER] } });
    test = await createTestStack(
      "replace",
      async () => {
        const resources = {
          key: new PublicKey("key", { publicKey: KEY }),
          group: new ConnectionGroup("group", { name: "replaced-group", description: "kept by name" }),
          cluster: new Cluster("cluster", { nodes: 1, name: "replaced-cluster" }),
          run: new JobRun("run", { clusterId: READY_CLUSTER.id, packageId: PACKAGE.id }),
        };
        return Object.fromEntries(Object.entries(resources).map(([name, r]) => [name, r.urn]));
      },
      service,
    );
    const up = await test.stack.up();
    for (const [name, output] of Object.entries(up.outputs)) urns[name] = output.value as string;
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("a public key with the same key material: the old key is deleted first, then the same key made again", async () => {
    const { before, after, up } = await forceReplacement("key");
    expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
    expect(after).not.toBe(before);
    expect((await account()).publicKeys.map((k: { id: number }) => String(k.id))).toEqual([after]);
  });

  it("a connection group: deleted first (its name is unique), then made again with the same name", async () => {
    const { before, after } = await forceReplacement("group");
    expect(after).not.toBe(before);
    expect((await account()).connectionGroups.map((g: { id: number; name: string }) => [String(g.id), g.name])).toEqual([[after, "replaced-group"]]);
  });

  it("a cluster: a new cluster comes up, then the old one is terminated", async () => {
    const { before, after } = await forceReplacement("cluster");
    expect(after).not.toBe(before);
    const clusters = (await account()).clusters as Array<{ id: number; status: string }>;
    expect(clusters.find((c) => String(c.id) === before)?.status).toBe("terminated");
    expect(clusters.find((c) => String(c.id) === after)?.status).toMatch(/available|idle/);
  });

  it("a job run: the package runs again, and the finished old run is only forgotten", async () => {
    const { before, after } = await forceReplacement("run");
    expect(after).not.toBe(before);
    const jobs = (await account()).jobs as Array<{ id: number; status: string }>;
    expect(jobs.map((j) => [String(j.id), j.status])).toEqual([
      [before, "completed"],
      [after, "completed"],
    ]);
    await test.stack.preview({ expectNoChanges: true });
  });
});
