/**
 * Cancelling a deployment the way a terminal or a CI runner does: SIGINT or SIGTERM to the
 * `pulumi` process while it waits for a long job or a cluster coming up. The CLI returns within
 * seconds, the state keeps the objects (a job is left running), and the next `up` carries on
 * with them, creating nothing twice.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCliProject, eventually, type CliProject } from "../support/cli";
import { startLocalService, type LocalService } from "../support/service";
import { kindOfType, SURFACES } from "../support/surfaces";

/**
 * Real time while the signal lands: a cluster takes 21 s to come up and the job runs 20 s, far
 * longer than a cancellation may take. Once it is checked, the service's clock runs fast, so the
 * next `up` finds the job or the cluster at its end without the rest of the wait.
 */
const SPEED = 1;
const AFTER_THE_CANCELLATION = 100;
const SLOW = { id: 105, name: "slow", run: { seconds: 20, outcome: "completed" as const, outputs: [{ name: "out", records: 10 }] } };
const CLUSTER = { id: 201, name: "ready", nodes: 1 };

type ServiceRecord = { id: number; status: string };

async function accountTable(service: LocalService, table: "jobs" | "clusters"): Promise<ServiceRecord[]> {
  return (await service.state()).accounts[0][table];
}

async function resourcesInState(project: CliProject): Promise<Array<{ type: string; id?: string; outputs?: Record<string, unknown>; urn: string }>> {
  return ((await project.stack.exportStack()).deployment.resources ?? []).filter((r: { type: string }) => kindOfType(r.type) !== undefined);
}

describe.each(SURFACES)("cancelling pulumi up (%s)", { timeout: 240_000 }, (surface) => {
  let service: LocalService;
  let project: CliProject;

  beforeAll(async () => {
    service = await startLocalService({ speed: SPEED, account: { packages: [SLOW], clusters: [CLUSTER] } });
    project = await createCliProject(`cancel-${surface}`, service, {}, { surface });
  });

  beforeEach(() => service.setSpeed(SPEED));

  afterAll(async () => {
    project?.dispose();
    await service?.emulator.close();
  });

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`${signal} during a long job wait returns before the job ends, keeps the running job, and the next up waits for the same job`, async () => {
      await project.declare([{ kind: "JobRun", name: `run-${signal}`, args: { clusterId: 201, packageId: SLOW.id } }]);
      const before = (await accountTable(service, "jobs")).length;
      const cli = project.run(["up", "--yes", "--skip-preview"]);
      const job = await eventually("the job to run", async () => (await accountTable(service, "jobs")).slice(before).find((j) => j.status === "running"));
      const sentAt = Date.now();
      cli.child.kill(signal);
      const { code, output } = await cli.exited;
      const seconds = (Date.now() - sentAt) / 1000;
      console.log(`${signal}: the CLI exited ${seconds.toFixed(1)} s after the signal; its last lines:\n${output.trim().split("\n").slice(-8).join("\n")}`);

      // Not waited out: the CLI has ended while the job still runs (below).
      expect(code).not.toBe(0);
      expect(output).toContain(`while waiting for job ${job.id}`);
      expect(output).toContain("the job is left running on the service");
      const [kept] = await resourcesInState(project);
      expect(kept).toMatchObject({ id: String(job.id), outputs: { status: expect.stringMatching(/^(idle|pending|queued|running)$/) } });
      expect((await accountTable(service, "jobs")).find((j) => j.id === job.id)?.status).toBe("running");

      await service.setSpeed(AFTER_THE_CANCELLATION);
      const again = await project.runToEnd(["up", "--yes", "--skip-preview"]);
      expect(again.code, again.output).toBe(0);
      const jobs = await accountTable(service, "jobs");
      expect(jobs.length).toBe(before + 1);
      expect(jobs.at(-1)).toMatchObject({ id: job.id, status: "completed" });
      expect((await resourcesInState(project))[0]).toMatchObject({ id: String(job.id), outputs: { status: "completed" } });
      await project.declare([]);
      expect((await project.runToEnd(["up", "--yes", "--skip-preview"])).code).toBe(0);
    });
  }

  it("SIGINT while a cluster comes up returns before it is up, keeps the cluster, and the next up waits for the same cluster", async () => {
    await project.declare([{ kind: "Cluster", name: "coming-up", args: { nodes: 1, name: "coming-up" } }]);
    const cli = project.run(["up", "--yes", "--skip-preview"]);
    const cluster = await eventually("the cluster to be created", async () => (await accountTable(service, "clusters")).find((c) => c.id !== CLUSTER.id));
    await eventually("the provider to wait for it", async () => (cli.output().includes(`cluster ${cluster.id} pending`) ? true : undefined));
    const sentAt = Date.now();
    cli.child.kill("SIGINT");
    const { code, output } = await cli.exited;
    console.log(
      `SIGINT during a cluster creation: the CLI exited ${((Date.now() - sentAt) / 1000).toFixed(1)} s after the signal; its last lines:\n${output.trim().split("\n").slice(-8).join("\n")}`,
    );

    expect(code).not.toBe(0);
    expect(output).toContain(`the deployment was cancelled while waiting for cluster ${cluster.id}`);
    expect((await resourcesInState(project))[0]).toMatchObject({ id: String(cluster.id), outputs: { status: expect.stringMatching(/^(pending|creating)$/) } });
    expect((await accountTable(service, "clusters")).find((c) => c.id === cluster.id)?.status).toMatch(/^(pending|creating)$/);

    await service.setSpeed(AFTER_THE_CANCELLATION);
    const again = await project.runToEnd(["up", "--yes", "--skip-preview"]);
    expect(again.code, again.output).toBe(0);
    const alive = (await accountTable(service, "clusters")).filter((c) => c.id !== CLUSTER.id && c.status !== "terminated");
    expect(alive).toEqual([expect.objectContaining({ id: cluster.id, status: expect.stringMatching(/^(available|idle)$/) })]);
    await project.declare([]);
    expect((await project.runToEnd(["up", "--yes", "--skip-preview"])).code).toBe(0);
  });
});
