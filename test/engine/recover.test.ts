/**
 * `etl-recover` after a deployment killed while it created one object of every kind (SIGKILL
 * of `pulumi up`, as a lost runner): it adopts each object the killed run made, and a plain
 * `pulumi up` afterwards makes nothing twice and leaves nothing out of the stack; a kill while
 * an object is updated leaves a lock that `etl-recover` removes; `destroy` then removes them
 * all. On both surfaces.
 */
import { readdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCE_KINDS, type ResourceKind } from "../../provider/resources/registry";
import { createCliProject, eventually, runEtlRecover, type CliProject, type DeclaredResource } from "../support/cli";
import { KIND_TESTS, type StateDump, type StateRow } from "../kinds";
import { isSingleton } from "../support/examples";
import { startTestEmulator, type Emulator } from "../support/service";
import { kindOfType, SURFACES } from "../support/surfaces";

/**
 * The kinds a create makes with a POST. A singleton's create takes over the one the service
 * already holds: a killed take-over leaves no object made to adopt.
 */
const MADE_BY_A_POST = RESOURCE_KINDS.filter((kind) => !isSingleton(kind));

/**
 * Every kind made by a POST once, from its example (whose ids the account below holds), its
 * secrets given as they are: a program file holds them. No create makes a follow-up call (a
 * connection's test, a package's validation), so each create is one POST.
 */
function oneOfEach(): DeclaredResource[] {
  return MADE_BY_A_POST.map((kind) => ({ kind, name: kind.toLowerCase(), args: KIND_TESTS[kind].exampleInputs({ secret: (value) => value }) }));
}

const ACCOUNT = {
  packages: [{ id: 101, name: "rollup", run: { seconds: 5, outcome: "completed" as const, outputs: [{ name: "out", records: 10 }] } }],
  // Made by another user: the stack's user watches it only once its ClusterWatcher is made.
  clusters: [{ id: 201, name: "pool", nodes: 2, ownerId: 9 }],
  connections: [
    { id: 301, name: "warehouse", type: "postgres", attributes: { host: "db.example.com", database: "analytics", username: "etl", password: "x" } },
    {
      id: 302,
      name: "redshift",
      type: "redshift",
      attributes: { host: "rs.example.com", database: "analytics", username: "etl", password: "x", region: "us-east-1" },
    },
    { id: 306, name: "crm", type: "salesforce", crmObjects: [{ name: "Contact" }] },
  ],
};

interface Deployment {
  resources?: Array<{ type: string; id?: string; inputs?: any; outputs?: any }>;
  pending_operations?: Array<{ type: string }>;
}

type Row = StateRow & { status?: string; delivery?: unknown; packageId?: number; clusterId?: number };

/** The id a resource of the kind has (a member's is the person's user id). */
const idOf = (kind: ResourceKind, row: Row) => KIND_TESTS[kind].made.id(row);

describe.each(SURFACES)("etl-recover after a deployment killed mid-create of every kind a POST makes (%s)", { timeout: 300_000 }, (surface) => {
  let service: Emulator;
  let project: CliProject;
  let seeded: Set<string>;

  /** Where the emulator keeps the records each kind's create makes: a member's membership, not its user. */
  const rows = (kind: ResourceKind, state: StateDump): Row[] => KIND_TESTS[kind].made.rows(state);
  /** The objects the test's stack made, by kind: not the account's own, nor the ones a delivery makes for itself. */
  const made = async (): Promise<Record<ResourceKind, Row[]>> => {
    const state = (await service.state()) as StateDump;
    // A delivery runs on a package and a cluster of its own, and its runs are jobs.
    const ofDeliveries = new Set(rows("Delivery", state).flatMap((delivery) => [`Package:${delivery.packageId}`, `Cluster:${delivery.clusterId}`]));
    const ours = (kind: ResourceKind) =>
      rows(kind, state).filter((row) => !seeded.has(`${kind}:${row.id}`) && !ofDeliveries.has(`${kind}:${row.id}`) && row.delivery === undefined);
    return Object.fromEntries(MADE_BY_A_POST.map((kind) => [kind, ours(kind)])) as Record<ResourceKind, Row[]>;
  };
  const deployment = async () => (await project.stack.exportStack()).deployment as Deployment;
  /** The ids the state holds, by kind: of a deployment already exported, or of a new export. */
  const idsInState = async (given?: Deployment): Promise<Record<string, string[]>> => {
    const ids: Record<string, string[]> = {};
    for (const resource of (given ?? (await deployment())).resources ?? []) {
      const kind = kindOfType(resource.type);
      if (kind !== undefined) (ids[kind] ??= []).push(String(resource.id));
    }
    return ids;
  };
  const idsOnService = async () =>
    Object.fromEntries(
      Object.entries(await made()).flatMap(([kind, list]) => (list.length === 0 ? [] : [[kind, list.map((row) => idOf(kind as ResourceKind, row))]])),
    );

  const recover = (args: string[] = []) => runEtlRecover(project, args);
  /** The file backend's metadata of the stack's state, beside it: `.pulumi/stacks/<project>/test.json.attrs`. */
  const stateMetadata = () => {
    const stacks = path.join(new URL(project.env.PULUMI_BACKEND_URL!).pathname, ".pulumi", "stacks");
    const [projectName] = readdirSync(stacks);
    return path.join(stacks, projectName!, "test.json.attrs");
  };

  beforeAll(async () => {
    service = await startTestEmulator({ speed: 1, account: ACCOUNT });
    const initial = (await service.state()) as StateDump;
    seeded = new Set(MADE_BY_A_POST.flatMap((kind) => rows(kind, initial).map((row) => `${kind}:${row.id}`)));
    project = await createCliProject(`recover-${surface}`, service, {}, { surface });
    await project.declare(oneOfEach());
  });

  afterAll(async () => {
    project?.dispose();
    await service?.emulator.close();
  });

  it("SIGKILL while a create of every kind waits for its answer leaves each kind's object on the service and a pending create for each", async () => {
    // Each create is applied at once and its answer held back: the kill lands between the two.
    await service.faults({ rate: 1, kinds: ["hold_after"], methods: ["POST"], holdMs: 10_000 });
    const cli = project.run(["up", "--yes", "--skip-preview", "--parallel", String(MADE_BY_A_POST.length * 2)]);
    await eventually("an object of every kind", async () => (Object.values(await made()).every((list) => list.length === 1) ? true : undefined));
    cli.child.kill("SIGKILL");
    await cli.exited;
    await service.faults();
    // Slower still, so the cluster and the job are still under way when etl-recover adopts them.
    await service.setSpeed(0.05);
    expect(await idsInState()).toEqual({});
    expect(((await deployment()).pending_operations ?? []).filter((op) => op.type === "creating")).toHaveLength(MADE_BY_A_POST.length);
  });

  it("a dry run says what it would adopt and changes nothing", async () => {
    const dry = await recover(["--dry-run"]);
    expect(dry.code, dry.output).toBe(0);
    for (const [kind, list] of Object.entries(await made()))
      expect(dry.output).toContain(`::${kind.toLowerCase()} → ${kind} ${idOf(kind as ResourceKind, list[0]!)} (found by`);
    // The window opens when the killed run took its lock.
    expect(dry.output).toMatch(new RegExp(`^${MADE_BY_A_POST.length} interrupted creates; objects made since \\d{4}-\\d\\d-\\d\\dT`, "m"));
    expect(dry.output).toContain("dry run: the state is unchanged");
    expect((await deployment()).pending_operations).toHaveLength(MADE_BY_A_POST.length);
  });

  it("etl-recover removes the state's metadata a killed run left empty, which no pulumi command gets past; a dry run only says so", async () => {
    // The backend truncates the metadata, then writes it: a kill between the two leaves it empty.
    writeFileSync(stateMetadata(), "");
    const stuck = await project.runToEnd(["stack", "export"]);
    expect(stuck.output).toContain("failed to load checkpoint: EOF");
    const dry = await recover(["--dry-run"]);
    expect(dry.code).toBe(1);
    expect(dry.output).toContain(
      `the metadata of the stack's state (${stateMetadata()}) empty or cut short, and pulumi cannot read the stack; etl-recover without --dry-run removes it`,
    );
  });

  it("etl-recover adopts every object, then pulumi up makes none twice and leaves none out; destroy removes them", async () => {
    const recovered = await recover();
    expect(recovered.code, recovered.output).toBe(0);
    expect(recovered.output).toContain(`(${stateMetadata()}) empty or cut short, and pulumi cannot read the stack: removed it`);
    expect(recovered.output).not.toContain(service.apiKey);
    expect(recovered.output).toContain(`state updated: ${MADE_BY_A_POST.length} adopted, 0 cleared, 0 left pending`);
    const found = await idsOnService();
    const recorded = await deployment();
    expect(recorded.pending_operations ?? []).toEqual([]);
    expect(await idsInState(recorded)).toEqual(found);
    expect(recovered.output).toMatch(/the next pulumi up carries on with cluster: Cluster \d+ was adopted by etl-recover while it is \w+/);
    expect(recovered.output).toMatch(/the next pulumi up carries on with jobrun: JobRun \d+ was adopted by etl-recover while it is \w+/);

    await service.setSpeed(100);
    const up = await project.runToEnd(["up", "--yes", "--skip-preview"]);
    expect(up.code, up.output).toBe(0);
    expect(up.output).not.toContain("interrupted while creating");
    expect(await idsOnService()).toEqual(found);
    // One export of the state after the up serves every assertion on it below: the CLI's own, which
    // shows secrets as they are stored (the Automation API's export decrypts them).
    const exported = await project.runToEnd(["stack", "export"]);
    expect(exported.output).not.toContain(service.apiKey);
    const after = (JSON.parse(exported.output) as { deployment: Deployment }).deployment;
    expect(await idsInState(after)).toEqual(found);
    const encrypted = after.resources ?? [];
    const statusOf = (kind: ResourceKind) => encrypted.find((r) => kindOfType(r.type) === kind)!.outputs.status;
    expect([statusOf("Cluster"), statusOf("JobRun")]).toEqual(["idle", "completed"]);
    // Secrets the killed creates were given stay encrypted in the state, as a create keeps them.
    const secretOf = (kind: ResourceKind, part: "inputs" | "outputs", name: string) => encrypted.find((r) => kindOfType(r.type) === kind)![part][name];
    for (const [kind, name] of [
      ["Connection", "password"],
      ["Hook", "settings"],
    ] as const) {
      expect(secretOf(kind, "inputs", name)).toHaveProperty("ciphertext");
      expect(secretOf(kind, "outputs", name)).toHaveProperty("ciphertext");
    }
    expect(secretOf("Hook", "outputs", "salt")).toHaveProperty("ciphertext");
  });

  it("a kill while an object is updated leaves only the lock, which etl-recover removes, saying so; the next up goes on", async () => {
    await project.declare(
      oneOfEach().map((resource) => (resource.kind === "Hook" ? { ...resource, args: { ...resource.args, name: "renamed alerts" } } : resource)),
    );
    await service.faults({ rate: 1, kinds: ["hold_after"], methods: ["PUT"], holdMs: 10_000 });
    const cli = project.run(["up", "--yes", "--skip-preview"]);
    const hookNamed = async (name: string) => ((await service.state()) as StateDump).accounts[0]!.hooks.some((hook: { name: string }) => hook.name === name);
    await eventually("the hook's PUT applied", async () => ((await hookNamed("renamed alerts")) ? true : undefined));
    cli.child.kill("SIGKILL");
    await cli.exited;
    await service.faults();
    const locked = await project.runToEnd(["up", "--yes", "--skip-preview"]);
    expect(locked.output).toContain("currently locked");
    const recovered = await recover();
    expect(recovered.code, recovered.output).toBe(0);
    expect(recovered.output).toMatch(/left its lock while it ran 1 operations \(an update of hook\)/);
    expect(recovered.output).toContain("lock removed (pulumi cancel)");
    const up = await project.runToEnd(["up", "--yes", "--skip-preview"]);
    expect(up.code, up.output).toBe(0);
    expect(await idsOnService()).toEqual(await idsInState());
  });

  it("destroy removes them all", async () => {
    const destroyed = await project.runToEnd(["destroy", "--yes", "--skip-preview"]);
    expect(destroyed.code, destroyed.output).toBe(0);
    const left = await made();
    // Jobs are records of runs the API cannot delete; clusters end as terminated, packages as archived.
    const alive = (kind: ResourceKind, row: Row) => kind !== "JobRun" && !["terminated", "terminating", "archived"].includes(String(row.status));
    expect(MADE_BY_A_POST.flatMap((kind) => left[kind].filter((row) => alive(kind, row)).map((row) => `${kind} ${idOf(kind, row)}`))).toEqual([]);
  });
});
