/**
 * Nothing is lost from state when a wait fails: the emulator goes away (or the hourly
 * allowance runs out) for longer than the retry budget while `up` or `destroy` waits for a
 * cluster coming up, rescaling, adopted or terminating, or for a job. The operation fails,
 * naming each object and keeping it in the stack; once the service is back, the next command
 * carries on with the same objects, and the service holds no orphan. One cut meets every wait of
 * an `up` at once, so each surface shows it in three cuts: an allowance used up, an outage during
 * `up`, and one during `destroy`. (How a wait rides out or gives up on an outage, per failure, is
 * in test/unit/wait-outages.test.ts; the failure's text in test/unit/wait.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClusterArgs, JobRunArgs } from "pulumi-etl";
import { createTestStack, failureOf, type TestStack } from "../support/engine";
import { eventually } from "../support/cli";
import { startTestEmulator, type Emulator } from "../support/service";
import { declare, kindOfType, SURFACES } from "../support/surfaces";

const SPEED = 2;
/** Once the service is back, what is left of the waits needs no real time. */
const AFTER_THE_CUT = 50;
/** Clusters and the job finish in about 2 s; at 10 a cluster stays available 6 s before idle, for `holdOnceDone` to stop it there. */
const TO_AVAILABLE = 10;
/**
 * Slow enough that every object stays in the step the outage is to cut, however long the engine
 * takes to reach them all: pending_terminate (1 simulated second) lasts 20 s, coming up 7 minutes,
 * a job's start a minute.
 */
const HOLD_SPEED = 0.05;
const JOB = { id: 101, name: "rollup", run: { seconds: 20, outcome: "completed" as const, outputs: [{ name: "out", records: 5 }] } };
const READY_CLUSTER = { id: 201, name: "ready", nodes: 1 };
const NOT_ENDING = (status: string) => !["pending_terminate", "terminating", "terminated"].includes(status);
const KEPT_FOR_THE_NEXT_UP = "it stays in the stack and the next `pulumi up` waits for it again";

type ServiceRecord = { id: number; status: string; nodes?: number };

describe.each(SURFACES)("outages longer than the retry budget during waits (%s)", { timeout: 300_000 }, (surface) => {
  let service: Emulator;
  let test: TestStack;
  let clusters: Array<[string, ClusterArgs]> = [];
  let jobs: Array<[string, JobRunArgs]> = [];
  const output: string[] = [];
  const onOutput = (text: string) => output.push(text);

  const table = async (name: "clusters" | "jobs"): Promise<ServiceRecord[]> => (await service.state()).accounts[0][name];
  const stateResources = async (): Promise<Array<{ urn: string; type: string; id?: string; outputs?: Record<string, unknown>; initErrors?: string[] }>> =>
    (await test.stack.exportStack()).deployment.resources ?? [];
  /** The stack's state as it stands, read once: its resource of each name. */
  const stateNow = async () => {
    const resources = await stateResources();
    return (name: string) => resources.find((r) => r.urn.endsWith(`::${name}`));
  };
  /** Clusters of the account that are alive, the fixture's ready one aside. */
  const liveClusters = async () => (await table("clusters")).filter((c) => c.id !== READY_CLUSTER.id && NOT_ENDING(c.status));

  /** Starts `operation`, cuts the service off once `moment` holds, and returns the failure's text. */
  async function failDuringWait(operation: Promise<unknown>, moment: () => Promise<boolean>, cut: () => Promise<void>): Promise<string> {
    await eventually("the waits to begin", async () => ((await moment()) ? true : undefined));
    await cut();
    return failureOf(operation);
  }

  beforeAll(async () => {
    service = await startTestEmulator({ speed: SPEED, account: { packages: [JOB], clusters: [READY_CLUSTER] } });
    test = await createTestStack(
      "outages",
      async () => {
        for (const [name, args] of clusters) declare(surface, "Cluster", name, { ...args });
        for (const [name, args] of jobs) declare(surface, "JobRun", name, { ...args });
      },
      service,
      {},
      { plugin: surface === "plugin" },
    );
    // A short budget, which an outage outlasts: the failures come half a second after the cut.
    await test.stack.setAllConfig({ "etl:retryBudgetSeconds": { value: "0.5" }, "etl:maxRetries": { value: "2" } });
  });

  /**
   * The service's clock all but stops once the clusters are available and the jobs done, so the
   * next step (idle, 60 simulated seconds later) cannot come before the test reads them.
   */
  async function holdOnceDone(clusterIds: number[]): Promise<void> {
    await eventually("the clusters to be available and the job done", async () => {
      const [all, jobsDone] = [await table("clusters"), (await table("jobs")).every((j) => j.status === "completed")];
      return jobsDone && clusterIds.every((id) => all.find((c) => c.id === id)?.status === "available") ? true : undefined;
    });
    await service.setSpeed(0.001);
  }

  afterAll(async () => {
    await service?.emulator.resume();
    test?.dispose();
    await service?.emulator.close();
  });

  let mainId: number;
  let secondId: number;

  it("the hourly allowance used up while clusters come up: up fails naming each and keeping them, and the next up finishes them once it renews", async () => {
    clusters = [
      ["main", { nodes: 1 }],
      ["second", { nodes: 1 }],
    ];
    const failure = await failDuringWait(
      test.stack.up({ onOutput }),
      async () => (await liveClusters()).length === 2,
      () => service.setCreditsRemaining(0),
    );
    const inState = await stateNow();
    mainId = Number(inState("main")?.id);
    secondId = Number(inState("second")?.id);
    expect((await liveClusters()).map((c) => c.id).sort()).toEqual([mainId, secondId].sort());
    for (const id of [mainId, secondId]) expect(failure).toContain(`waiting for cluster ${id}`);
    expect(failure).toContain("the hourly API allowance is used up");

    await service.renewCredits();
    await service.setSpeed(TO_AVAILABLE);
    const [up] = await Promise.all([test.stack.up({ onOutput }), holdOnceDone([mainId, secondId])]);
    expect(up.summary.resourceChanges).toMatchObject({ update: 2 });
    expect((await liveClusters()).map((c) => c.id).sort()).toEqual([mainId, secondId].sort());
    // The state right after: both recorded available, with no failure left over for the next up.
    const recorded = await stateNow();
    for (const name of ["main", "second"]) {
      const resource = recorded(name);
      expect(resource?.outputs, name).toMatchObject({ status: "available" });
      expect(resource?.initErrors ?? [], name).toEqual([]);
    }
  });

  it("an outage while up waits for a cluster coming up, one rescaling, an adopted one and a job: up fails naming each and keeping it, and the next up carries on with the same objects", async () => {
    await service.setSpeed(HOLD_SPEED);
    const made = await service.api("POST", "/clusters", { nodes: 1, name: "made-by-hand" });
    const madeId = Number(made.body.id);
    clusters = [
      ["main", { nodes: 2 }],
      ["second", { nodes: 1 }],
      ["fresh", { nodes: 1 }],
      ["adopted", { nodes: 1, name: "made-by-hand", importId: String(madeId) }],
    ];
    jobs = [["rollup", { clusterId: READY_CLUSTER.id, packageId: JOB.id }]];
    const known = [mainId, secondId, madeId];
    const failure = await failDuringWait(
      test.stack.up({ onOutput }),
      async () => {
        const live = await liveClusters();
        const adoptionRead = (await service.requests()).some((r: { path: string }) => r.path.endsWith(`/clusters/${madeId}`));
        return (
          live.some((c) => !known.includes(c.id)) &&
          live.find((c) => c.id === mainId)?.status === "scaling" &&
          (await table("jobs")).length === 1 &&
          adoptionRead
        );
      },
      () => service.emulator.suspend(),
    );
    await service.emulator.resume();
    await service.setSpeed(TO_AVAILABLE);
    const freshId = (await liveClusters()).find((c) => !known.includes(c.id))!.id;
    const [job] = await table("jobs");
    for (const what of [`cluster ${freshId}`, `cluster ${mainId}`, `cluster ${madeId}`, `job ${job!.id}`]) expect(failure).toContain(`waiting for ${what}`);
    expect(failure).toContain("ECONNREFUSED");
    expect(failure).toContain(KEPT_FOR_THE_NEXT_UP);
    const inState = await stateNow();
    expect(inState("fresh")?.id).toBe(String(freshId));
    expect(inState("main")?.outputs).toMatchObject({ nodes: 2, status: "scaling" });
    expect(inState("adopted")?.id).toBe(String(madeId));
    expect(inState("rollup")?.id).toBe(String(job!.id));

    // The job completes meanwhile: the next up records it without running it again.
    await holdOnceDone([freshId, mainId, madeId]);
    const up = await test.stack.up({ onOutput });
    // The four kept objects are updated in place, nothing is made anew; the stack and `second` are the same.
    expect(up.summary.resourceChanges).toEqual({ update: 4, same: 2 });
    expect(await table("jobs")).toEqual([expect.objectContaining({ id: job!.id, status: "completed" })]);
    expect((await stateNow())("rollup")?.outputs).toMatchObject({ status: "completed" });
    const live = await liveClusters();
    expect(live.map((c) => c.id).sort()).toEqual([mainId, secondId, freshId, madeId].sort());
    for (const id of [freshId, mainId, madeId]) expect(live.find((c) => c.id === id)).toMatchObject({ status: "available" });
    expect(live.find((c) => c.id === mainId)).toMatchObject({ nodes: 2 });
    await test.stack.preview({ expectNoChanges: true });
  });

  it("an outage while destroy waits for clusters terminating: destroy fails saying each stays in the stack, and the next destroy ends them", async () => {
    const ids = (await liveClusters()).map((c) => c.id);
    await service.setSpeed(HOLD_SPEED);
    const failure = await failDuringWait(
      test.stack.destroy({ onOutput }),
      async () => {
        const all = await table("clusters");
        return ids.every((id) => all.find((c) => c.id === id)?.status === "pending_terminate");
      },
      () => service.emulator.suspend(),
    );
    await service.emulator.resume();
    await service.setSpeed(AFTER_THE_CUT);
    for (const id of ids) expect(failure).toContain(`cluster ${id} is pending_terminate and reading it failed`);
    expect(failure).toContain("it stays in the stack");
    const inState = await stateNow();
    for (const name of ["main", "second", "fresh", "adopted"]) expect(inState(name), name).toBeDefined();

    await test.stack.destroy({ onOutput });
    expect(await liveClusters()).toEqual([]);
    expect((await stateResources()).filter((r) => kindOfType(r.type) !== undefined)).toEqual([]);
  });
});
