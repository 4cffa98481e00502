/**
 * A deployment killed mid-create (SIGKILL of `pulumi up`, as a runner that escalates does), and
 * its recovery by hand, the way docs/operations.md leaves to the user when `etl-recover` cannot tell
 * two objects apart: the provider process stops with the CLI, the stale lock is removed, the
 * pending creates are cleared, every object the killed run made is adopted with `importId` (a
 * key or group in the way names its id), and service and state end in exact agreement, with
 * nothing made twice and nothing left to change. `recover.test.ts` runs the command itself, and
 * destroys what it adopted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCliProject, eventually, processesOf, type CliProject, type DeclaredResource } from "../support/cli";
import { startTestEmulator, type Emulator } from "../support/service";
import { freshEd25519Key } from "../support/soak";
import { kindOfType, SURFACES } from "../support/surfaces";

const SLOW = { id: 105, name: "slow", run: { seconds: 20, outcome: "completed" as const, outputs: [{ name: "out", records: 10 }] } };
const READY_CLUSTER = { id: 201, name: "ready", nodes: 1 };
const KEY = freshEd25519Key("interrupted@test");

type Row = { id: number; name?: string; status?: string; variables?: Record<string, string> };

function declared(importIds: Partial<Record<"key" | "group" | "cluster" | "run", number>> = {}): DeclaredResource[] {
  const adopt = (name: keyof typeof importIds) => (importIds[name] === undefined ? {} : { importId: String(importIds[name]) });
  return [
    { kind: "PublicKey", name: "key", args: { publicKey: KEY, ...adopt("key") } },
    { kind: "ConnectionGroup", name: "group", args: { name: "interrupted-group", description: "made before the kill", ...adopt("group") } },
    { kind: "Cluster", name: "cluster", args: { nodes: 1, name: "interrupted-cluster", ...adopt("cluster") } },
    { kind: "JobRun", name: "run", args: { clusterId: READY_CLUSTER.id, packageId: SLOW.id, variables: { batch: "'interrupted'" }, ...adopt("run") } },
  ];
}

describe.each(SURFACES)("a deployment killed mid-create, and its recovery (%s)", { timeout: 300_000 }, (surface) => {
  let service: Emulator;
  let project: CliProject;
  const account = async () => (await service.state()).accounts[0] as { publicKeys: Row[]; connectionGroups: Row[]; clusters: Row[]; jobs: Row[] };
  const made = async () => {
    const a = await account();
    return { keys: a.publicKeys, groups: a.connectionGroups, clusters: a.clusters.filter((c) => c.id !== READY_CLUSTER.id), jobs: a.jobs };
  };
  const stateOf = async () =>
    (await project.stack.exportStack()).deployment as { resources?: Array<{ type: string; urn: string; id?: string }>; pending_operations?: unknown[] };
  const idsInState = async () =>
    Object.fromEntries(
      ((await stateOf()).resources ?? []).filter((r) => kindOfType(r.type) !== undefined).map((r) => [r.urn.split("::").pop()!, Number(r.id)]),
    );

  beforeAll(async () => {
    service = await startTestEmulator({ speed: 1, account: { packages: [SLOW], clusters: [READY_CLUSTER] } });
    project = await createCliProject(`interrupted-${surface}`, service, {}, { surface });
    await project.declare(declared());
  });

  afterAll(async () => {
    project?.dispose();
    await service?.emulator.close();
  });

  it("SIGKILL while every create waits for its answer: the objects exist, the state has none, and the provider stops at once", async () => {
    // Each create is applied at once, its answer held back: the kill lands between the two.
    await service.faults({ rate: 1, kinds: ["hold_after"], methods: ["POST"], holdMs: 4000 });
    const cli = project.run(["up", "--yes", "--skip-preview"]);
    await eventually("all four objects to exist", async () => {
      const m = await made();
      return m.keys.length + m.groups.length + m.clusters.length + m.jobs.length === 4 ? true : undefined;
    });
    // The providers: the dynamic resources' (`cmd/dynamic-provider`) or the plugin's (`provider/plugin/start.js`).
    // The engine's language host idles on after a kill; it is the engine's own and calls nothing.
    const providers = () => processesOf(project).filter((p) => /\/dynamic-provider\/|\/provider\/plugin\/start\.js /.test(p.command));
    expect(providers().length).toBeGreaterThan(0);
    cli.child.kill("SIGKILL");
    await cli.exited;
    await service.faults();
    await service.resetRequests();
    // A provider still running would hear the held answers and go on to wait for the cluster and
    // the job; once none is left, nothing can call any more.
    await eventually("the killed run's providers to stop", async () => (providers().length === 0 ? true : undefined), 10_000);
    expect(await service.calls()).toEqual([]);
    expect(await idsInState()).toEqual({});
    expect((await stateOf()).pending_operations).toHaveLength(4);
  });

  it("the recovery by hand adopts what the killed run made, nothing is made twice, and the program without importIds changes nothing", async () => {
    // The kill needed real time; the recovery's waits for the cluster and the job do not.
    await service.setSpeed(100);
    const locked = await project.runToEnd(["up", "--yes", "--skip-preview"]);
    expect(locked.code).not.toBe(0);
    expect(locked.output).toContain("the stack is currently locked");
    expect((await project.runToEnd(["cancel", "--yes"])).code).toBe(0);

    const cleared = await project.runToEnd(["refresh", "--clear-pending-creates", "--yes", "--skip-preview"]);
    expect(cleared.code, cleared.output).toBe(0);
    expect((await stateOf()).pending_operations ?? []).toEqual([]);

    // Clusters and jobs can exist twice, so they are looked up in the account before the next up.
    const { keys, groups, clusters, jobs } = await made();
    const cluster = clusters.find((c) => c.name === "interrupted-cluster")!.id;
    const run = jobs.find((j) => j.variables?.batch === "'interrupted'")!.id;
    await project.declare(declared({ cluster, run }));
    const inTheWay = await project.runToEnd(["up", "--yes", "--skip-preview"]);
    expect(inTheWay.code).not.toBe(0);
    expect(inTheWay.output).toContain(`already exists as public key ${keys[0]!.id}`);
    expect(inTheWay.output).toContain(`set importId: "${keys[0]!.id}" on this resource`);
    expect(inTheWay.output).toContain(`already exists as connection group ${groups[0]!.id}`);

    await project.declare(declared({ key: keys[0]!.id, group: groups[0]!.id, cluster, run }));
    const adopted = await project.runToEnd(["up", "--yes", "--skip-preview"]);
    expect(adopted.code, adopted.output).toBe(0);
    // With the importIds gone, the program is the one the killed run had: nothing to change.
    await project.declare(declared());
    const settled = await project.runToEnd(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
    expect(settled.code, settled.output).toBe(0);

    const after = await made();
    expect([after.keys.length, after.groups.length, after.clusters.length, after.jobs.length]).toEqual([1, 1, 1, 1]);
    expect(await idsInState()).toEqual({ key: keys[0]!.id, group: groups[0]!.id, cluster, run });
    expect(after.jobs[0]!.status).toBe("completed");
  });
});
