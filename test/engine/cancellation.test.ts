/**
 * Cancelling a deployment the way a terminal or a CI runner does: a signal to the `pulumi`
 * process while one `up` waits for a running job and for a cluster coming up (SIGINT on the
 * dynamic resources, SIGTERM on the plugin: the engine turns either into the same Cancel call,
 * whose effect on requests and waits `test/unit/policies/cancel.test.ts` holds). The CLI fails,
 * the state keeps both objects as the provider last read them, the job is left running, and the
 * next `up` carries on with the same two, creating nothing twice. How soon the CLI returns after
 * the signal is measured by `npm run bench:cancellation`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCliProject, eventually, type CliProject } from "../support/cli";
import { startTestEmulator, type Emulator } from "../support/service";
import { kindOfType, SURFACES, type Surface } from "../support/surfaces";

const SIGNAL: Record<Surface, NodeJS.Signals> = { dynamic: "SIGINT", plugin: "SIGTERM" };

/** Once the provider has printed what it waits for, the service's clock almost stops, so nothing moves on before the signal lands. */
const HELD = 0.001;
/** For the next `up`: the job has run its course and the cluster has come up and gone idle before that `up` reads them. */
const AT_ONCE = 1000;
const LONG = { id: 105, name: "long", run: { seconds: 60, outcome: "completed" as const, outputs: [{ name: "out", records: 10 }] } };
const READY = { id: 201, name: "ready", nodes: 1 };

type ServiceRecord = { id: number; status: string };

describe.each(SURFACES)("cancelling pulumi up (%s)", { timeout: 240_000 }, (surface) => {
  const signal = SIGNAL[surface];
  let service: Emulator;
  let project: CliProject;

  /** The service's jobs and clusters, the fixture cluster the job runs on aside, as id and status. */
  const onTheService = async (): Promise<{ jobs: ServiceRecord[]; clusters: ServiceRecord[] }> => {
    const account = (await service.state()).accounts[0] as { jobs: ServiceRecord[]; clusters: ServiceRecord[] };
    const brief = ({ id, status }: ServiceRecord) => ({ id, status });
    return { jobs: account.jobs.map(brief), clusters: account.clusters.filter((c) => c.id !== READY.id).map(brief) };
  };

  /** Each ETL resource of the state by name, with its id and the status the provider last read. */
  const inState = async (): Promise<Record<string, { id?: string; status?: unknown }>> => {
    const resources = ((await project.stack.exportStack()).deployment.resources ?? []) as Array<{
      type: string;
      urn: string;
      id?: string;
      outputs?: { status?: unknown };
    }>;
    return Object.fromEntries(
      resources.filter((r) => kindOfType(r.type) !== undefined).map((r) => [r.urn.split("::").pop()!, { id: r.id, status: r.outputs?.status }]),
    );
  };

  beforeAll(async () => {
    service = await startTestEmulator({ speed: 1, account: { packages: [LONG], clusters: [READY] } });
    project = await createCliProject(`cancel-${surface}`, service, {}, { surface });
    await project.declare([
      { kind: "JobRun", name: "run", args: { clusterId: READY.id, packageId: LONG.id } },
      { kind: "Cluster", name: "coming-up", args: { nodes: 1, name: "coming-up" } },
    ]);
  });

  afterAll(async () => {
    project?.dispose();
    await service?.emulator.close();
  });

  it(`${signal} while a job runs and a cluster is created: the CLI fails, both stay in the stack as read, the job runs on, and the next up ends both waits with the same objects`, async () => {
    const cli = project.run(["up", "--yes", "--skip-preview"]);
    const { job, cluster } = await eventually("the provider to print a running job and a cluster being created", async () => {
      const { jobs, clusters } = await onTheService();
      const [job, cluster] = [jobs[0], clusters[0]];
      const printed = cli.output();
      return job && cluster && printed.includes(`job ${job.id} running`) && printed.includes(`cluster ${cluster.id} creating`) ? { job, cluster } : undefined;
    });
    await service.setSpeed(HELD);
    cli.child.kill(signal);
    const { code, output } = await cli.exited;

    expect(code, output).not.toBe(0);
    expect(output).toContain(`the deployment was cancelled while waiting for job ${job.id} (it is running `);
    expect(output).toContain("the job is left running on the service");
    expect(output).toContain(`the deployment was cancelled while waiting for cluster ${cluster.id}`);
    expect(await inState()).toEqual({ run: { id: String(job.id), status: "running" }, "coming-up": { id: String(cluster.id), status: "creating" } });
    expect(await onTheService()).toEqual({ jobs: [{ id: job.id, status: "running" }], clusters: [{ id: cluster.id, status: "creating" }] });

    await service.setSpeed(AT_ONCE);
    const again = await project.runToEnd(["up", "--yes", "--skip-preview"]);
    expect(again.code, again.output).toBe(0);
    expect(await onTheService()).toEqual({ jobs: [{ id: job.id, status: "completed" }], clusters: [{ id: cluster.id, status: "idle" }] });
    expect(await inState()).toEqual({ run: { id: String(job.id), status: "completed" }, "coming-up": { id: String(cluster.id), status: "idle" } });
  });
});
