/**
 * `npm run bench`: the provider measured against the limits, in one run, on the real engine.
 *
 * For N = 10, 100, 300 and 1000 resources of each kind, through the plugin and on the dynamic
 * resources, and for the floors of each surface run by the same engine (N resources of a no-op
 * provider plugin, N no-op dynamic resources) and each kind's own floor (no-op resources with
 * its inputs and outputs): API calls per resource for create, an unchanged preview, refresh and
 * destroy; wall time of each, and its ratio to the floors; CPU time of the
 * CLI and the processes it ran; state per resource. Then one job run of 5 s, 60 s and 600 s:
 * polls spent and how long after the job's end `up` returns. Prints the tables and writes them,
 * with a chart of up time against N, into docs/ (or BENCH_OUTPUT).
 *
 * Every kind and N runs BENCH_REPEAT times (default 3), the kinds taking turns so that a slow
 * spell of the machine hits them alike; the table shows each operation's median time.
 *
 * Settings (environment):
 * - BENCH_COUNTS: the values of N (default "10,100,300,1000"). N = 1000 takes about 50 minutes a
 *   repeat for every kind (the engine writes the whole checkpoint after each create and delete,
 *   so `up` and `destroy` grow with N squared); N = 100 about 6 minutes a repeat. A full run of
 *   three repeats takes hours: `BENCH_COUNTS=100` and `BENCH_COUNTS=1000 BENCH_REPEAT=1` are the
 *   runs docs/benchmark.md shows.
 * - BENCH_KINDS: the kinds measured beside the floors, each optionally with the largest N it runs
 *   at (default: every kind of the provider's one list but the singletons, which a program
 *   declares once, each built from its reference example, through the plugin as
 *   `<Kind>@plugin` and on the dynamic resources as `<Kind>`); `PublicKey@plugin`
 *   alone measures one kind through the plugin, and `Cluster:300` keeps clusters, which wait for
 *   the service both to create and to terminate them, out of the runs above 300.
 * - BENCH_REPEAT: runs of each kind and N (default 3).
 * - BENCH_JOBS: seconds:speed pairs of the job-wait runs (default "5:1,60:1,600:10"), or "none".
 * - BENCH_SPEED: lifecycle speed of the scaling runs (default 100).
 * - BENCH_OUTPUT: where the table and the chart go (default "docs", which docs/development.md shows);
 *   give another folder for a partial run, such as bench/.work/before.
 */
import * as os from "node:os";
import * as path from "node:path";
import { prepareWorkspace } from "./limits/workspace.mts";
import { startBenchService } from "./limits/service.mts";
import { measureJobWait, measureLifecycle, medianOf, OPERATIONS, type JobWaitResult, type Kind, type LifecycleResult } from "./limits/measure.mts";
import { measuredKind, MEASURED_KINDS, roundOf } from "./limits/kinds.mts";
import { writeRun } from "./limits/write.mts";

const REPO_ROOT = path.resolve(import.meta.dirname, "..");
const WORK_ROOT = path.join(REPO_ROOT, "bench", ".work", "limits");

function listSetting(name: string, fallback: string): string[] {
  return (process.env[name] || fallback)
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

function positiveNumber(name: string, text: string): number {
  const value = Number(text);
  if (!(value > 0) || !Number.isFinite(value)) throw new Error(`${name}: "${text}" is not a positive number`);
  return value;
}

/** A kind, and the largest N it runs at. */
interface KindSetting {
  kind: Kind;
  maxCount: number;
}

function kindSettings(): KindSetting[] {
  return listSetting("BENCH_KINDS", MEASURED_KINDS.join(",")).map((item) => {
    const [name = "", max] = item.split(":").map((part) => part.trim());
    const kind = measuredKind("BENCH_KINDS", name);
    return { kind, maxCount: max === undefined ? Number.POSITIVE_INFINITY : positiveNumber("BENCH_KINDS", max) };
  });
}

function machine(): string {
  const cpu = os.cpus()[0]?.model.trim() ?? "unknown CPU";
  return `${os.cpus().length} x ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node.js ${process.version}, ${os.platform()} ${os.release()}`;
}

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

async function main(): Promise<void> {
  const counts = listSetting("BENCH_COUNTS", "10,100,300,1000").map((text) => positiveNumber("BENCH_COUNTS", text));
  const kinds = kindSettings();
  const jobSetting = listSetting("BENCH_JOBS", "5:1,60:1,600:10");
  const jobs = (jobSetting.length === 1 && jobSetting[0] === "none" ? [] : jobSetting).map((pair) => {
    const [seconds, speed] = pair.split(":");
    return { seconds: positiveNumber("BENCH_JOBS", seconds ?? ""), speed: positiveNumber("BENCH_JOBS", speed ?? "") };
  });
  const speed = positiveNumber("BENCH_SPEED", process.env.BENCH_SPEED || "100");
  const repeat = positiveNumber("BENCH_REPEAT", process.env.BENCH_REPEAT || "3");
  const output = path.resolve(REPO_ROOT, process.env.BENCH_OUTPUT || "docs");
  const started = Date.now();
  const workspace = await prepareWorkspace(WORK_ROOT);

  const lifecycles: LifecycleResult[] = [];
  const service = await startBenchService(speed);
  try {
    for (const count of counts) {
      const kindsHere = kinds.filter((setting) => count <= setting.maxCount).map((setting) => setting.kind);
      if (kindsHere.length === 0) continue;
      const runs = new Map<Kind, LifecycleResult[]>();
      // Each kind is compared with its surface's floor (the no-op plugin's, the no-op dynamic
      // resources') and with its own, which runs after it and returns what it returned.
      for (let round = 1; round <= repeat; round++) {
        for (const kind of roundOf(kindsHere)) {
          const result = await measureLifecycle(workspace, service, kind, count);
          const seconds = OPERATIONS.map((op) => `${op} ${result.operations[op].seconds.toFixed(1)} s`).join(", ");
          log(`${kind} x ${count} (run ${round} of ${repeat}): ${seconds}`);
          runs.set(kind, [...(runs.get(kind) ?? []), result]);
        }
      }
      lifecycles.push(...[...runs.values()].map(medianOf));
    }
  } finally {
    await service.close();
  }

  const jobWaits: JobWaitResult[] = [];
  for (const job of jobs) {
    log(`job run of ${job.seconds} s at speed ${job.speed}`);
    const jobService = await startBenchService(job.speed);
    try {
      jobWaits.push(await measureJobWait(workspace, jobService, job.seconds, job.speed));
    } finally {
      await jobService.close();
    }
  }

  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  const context = `${new Date().toISOString().slice(0, 10)}, ${machine()}; median of ${repeat} runs; lifecycle speed x${speed}; ${minutes} min in all`;
  const written = writeRun(output, { context, lifecycles, jobWaits }).map((file) => path.relative(REPO_ROOT, file));
  log(`wrote ${written.join(", ")}`);
}

main().catch((error: unknown) => {
  console.error(`[bench] ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
