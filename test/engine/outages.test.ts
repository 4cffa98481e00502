/**
 * Nothing is lost from state when a wait fails: the emulator goes away (or the hourly
 * allowance runs out) for longer than the retry budget while `up` or `destroy` waits for a
 * cluster coming up, rescaling, adopted or terminating, or for a job. The operation fails,
 * naming the object and keeping it in the stack; once the service is back, the next command
 * carries on with the same object, and the service holds no orphan.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ClusterArgs, JobRunArgs } from "pulumi-etl";
import { createTestStack, failureOf, type TestStack } from "../support/engine";
import { eventually } from "../support/cli";
import { startTestEmulator, type Emulator } from "../support/service";
import { declare, SURFACES } from "../support/surfaces";

const SPEED = 2;
/** Once the service is back, what is left of the waits needs no real time. */
const AFTER_THE_CUT = 50;
/** A cluster's step the next `up` waits out, fast; at 10 the cluster stays available 6 s before idle, for `holdOnceAvailable` to stop it there. */
const TO_AVAILABLE = 10;
/**
 * Slow enough that a cluster stays in the step the outage is to cut, however long the engine
 * takes to reach it: pending_terminate (1 simulated second) lasts 20 s, coming up 7 minutes.
 */
const HOLD_SPEED = 0.05;
/** 20 simulated seconds: 10 s of real time at this speed, long enough to interrupt. */
const JOB = { id: 101, name: "rollup", run: { seconds: 20, outcome: "completed" as const, outputs: [{ name: "out", records: 5 }] } };
const READY_CLUSTER = { id: 201, name: "ready", nodes: 1 };
const NOT_ENDING = (status: string) => !["pending_terminate", "terminating", "terminated"].includes(status);

type ServiceRecord = { id: number; status: string; nodes?: number };

describe.each(SURFACES)("outages longer than the retry budget during waits (%s)", { timeout: 300_000 }, (surface) => {
  let service: Emulator;
  let test: TestStack;
  let clusters: Array<[string, ClusterArgs]> = [];
  let jobs: Array<[string, JobRunArgs]> = [];
  const output: string[] = [];
  const onOutput = (text: string) => output.push(text);

  const table = async (name: "clusters" | "jobs"): Promise<ServiceRecord[]> => (await service.state()).accounts[0][name];
  const inState = async (name: string) =>
    ((await test.stack.exportStack()).deployment.resources ?? []).find((r: { urn: string; custom?: boolean }) => r.urn.endsWith(`::${name}`));
  /** Clusters of the account that are alive, the fixture's ready one aside. */
  const liveClusters = async () => (await table("clusters")).filter((c) => c.id !== READY_CLUSTER.id && NOT_ENDING(c.status));

  /** Starts `operation`, cuts the service off once `moment` holds, and returns the failure's text. */
  async function failDuringWait(operation: Promise<unknown>, moment: () => Promise<boolean>, cut: () => Promise<void>): Promise<string> {
    await eventually("the wait to begin", async () => ((await moment()) ? true : undefined));
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

  beforeEach(() => service.setSpeed(SPEED));

  /** The service is back, and the rest of the waits runs fast. */
  async function backAtFastSpeed(): Promise<void> {
    await service.emulator.resume();
    await service.setSpeed(AFTER_THE_CUT);
  }

  /**
   * The service's clock all but stops once the cluster is available, so the next step (idle, 60
   * simulated seconds later) cannot come before the test reads it.
   */
  async function holdOnceAvailable(id: number): Promise<void> {
    await eventually("the cluster to be available", async () =>
      (await table("clusters")).find((c) => c.id === id)?.status === "available" ? true : undefined,
    );
    await service.setSpeed(0.001);
  }

  afterAll(async () => {
    await service?.emulator.resume();
    test?.dispose();
    await service?.emulator.close();
  });

  let clusterId: number;

  it("a cluster coming up: up fails naming it, keeps it, and the next up waits for the same cluster", async () => {
    clusters = [["main", { nodes: 1 }]];
    const failure = await failDuringWait(
      test.stack.up({ onOutput }),
      async () => (await liveClusters()).length === 1,
      () => service.emulator.suspend(),
    );
    await backAtFastSpeed();
    await service.setSpeed(TO_AVAILABLE);
    [{ id: clusterId }] = await liveClusters();
    expect(failure).toContain(`waiting for cluster ${clusterId}`);
    expect(failure).toContain("ECONNREFUSED");
    expect(failure).toContain("it stays in the stack and the next `pulumi up` waits for it again");
    expect((await inState("main"))?.id).toBe(String(clusterId));

    const [up] = await Promise.all([test.stack.up({ onOutput }), holdOnceAvailable(clusterId)]);
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(await liveClusters()).toEqual([expect.objectContaining({ id: clusterId, status: "available" })]);
    await test.stack.preview({ expectNoChanges: true });
  });

  it("a cluster rescaling: the failed update keeps the new size, and the next up waits for it", async () => {
    clusters = [["main", { nodes: 2 }]];
    const failure = await failDuringWait(
      test.stack.up({ onOutput }),
      async () => (await liveClusters())[0]?.status === "scaling",
      () => service.emulator.suspend(),
    );
    await backAtFastSpeed();
    await service.setSpeed(TO_AVAILABLE);
    expect(failure).toContain(`waiting for cluster ${clusterId}`);
    expect((await inState("main"))?.outputs).toMatchObject({ nodes: 2, status: "scaling" });

    await Promise.all([test.stack.up({ onOutput }), holdOnceAvailable(clusterId)]);
    expect(await liveClusters()).toEqual([expect.objectContaining({ id: clusterId, nodes: 2, status: "available" })]);
    await test.stack.preview({ expectNoChanges: true });
  });

  it("a job running: up fails keeping the job; the job completes meanwhile and the next up records it without running it again", async () => {
    jobs = [["rollup", { clusterId: READY_CLUSTER.id, packageId: JOB.id }]];
    const failure = await failDuringWait(
      test.stack.up({ onOutput }),
      async () => (await table("jobs")).some((j) => j.status === "running"),
      () => service.emulator.suspend(),
    );
    await backAtFastSpeed();
    const [job] = await table("jobs");
    expect(failure).toContain(`waiting for job ${job!.id}`);
    expect((await inState("rollup"))?.id).toBe(String(job!.id));
    await eventually("the job to complete", async () => ((await table("jobs"))[0]!.status === "completed" ? true : undefined));

    await test.stack.up({ onOutput });
    expect(await table("jobs")).toEqual([expect.objectContaining({ id: job!.id, status: "completed" })]);
    expect((await inState("rollup"))?.outputs).toMatchObject({ status: "completed" });
    await test.stack.preview({ expectNoChanges: true });
  });

  it("the hourly allowance used up during a wait: up fails keeping the cluster, and carries on once it renews", async () => {
    clusters = [
      ["main", { nodes: 2 }],
      ["second", { nodes: 1 }],
    ];
    const failure = await failDuringWait(
      test.stack.up({ onOutput }),
      async () => (await liveClusters()).length === 2,
      () => service.setCreditsRemaining(0),
    );
    const second = (await liveClusters()).find((c) => c.id !== clusterId)!;
    expect(failure).toContain(`waiting for cluster ${second.id}`);
    expect(failure).toContain("the hourly API allowance is used up");
    expect((await inState("second"))?.id).toBe(String(second.id));

    await service.renewCredits();
    await service.setSpeed(AFTER_THE_CUT);
    await test.stack.up({ onOutput });
    expect((await liveClusters()).map((c) => c.id).sort()).toEqual([clusterId, second.id].sort());
    await test.stack.preview({ expectNoChanges: true });
  });

  it("an adopted cluster still coming up: the failed adoption keeps it, and the next up finishes taking it over", async () => {
    await service.setSpeed(HOLD_SPEED);
    const made = await service.api("POST", "/clusters", { nodes: 1, name: "made-by-hand" });
    clusters = [...clusters, ["adopted", { nodes: 1, name: "made-by-hand", importId: String(made.body.id) }]];
    const failure = await failDuringWait(
      test.stack.up({ onOutput }),
      async () => (await service.requests()).some((r: { path: string }) => r.path.endsWith(`/clusters/${made.body.id}`)),
      () => service.emulator.suspend(),
    );
    await backAtFastSpeed();
    expect(failure).toContain(`waiting for cluster ${made.body.id}`);
    expect((await inState("adopted"))?.id).toBe(String(made.body.id));

    await test.stack.up({ onOutput });
    expect((await liveClusters()).length).toBe(3);
    await test.stack.preview({ expectNoChanges: true });
  });

  it("a termination by up (the cluster dropped from the program): up fails saying the cluster stays in the stack, the next up finishes it, and destroy the rest", async () => {
    jobs = [];
    clusters = clusters.filter(([name]) => name !== "second");
    const secondId = Number((await inState("second"))?.id);
    await service.setSpeed(HOLD_SPEED);
    const failure = await failDuringWait(
      test.stack.up({ onOutput }),
      async () => (await table("clusters")).some((c) => c.id === secondId && c.status === "pending_terminate"),
      () => service.emulator.suspend(),
    );
    await backAtFastSpeed();
    expect(failure).toContain(`cluster ${secondId} is pending_terminate and reading it failed`);
    expect(failure).toContain("it stays in the stack");
    expect(await inState("second")).toBeDefined();

    await test.stack.up({ onOutput });
    expect(await inState("second")).toBeUndefined();
    const destroy = await test.stack.destroy({ onOutput });
    expect(destroy.summary.resourceChanges).toMatchObject({ delete: 3 });
    expect(await liveClusters()).toEqual([]);
  });
});
