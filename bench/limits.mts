/**
 * `npm run bench`: the provider measured against the limits, in one run, on the real engine.
 *
 * For N = 10, 100 and 300 resources of each kind, and for a floor program of N no-op dynamic
 * resources run by the same engine: API calls per resource for create, an unchanged preview,
 * refresh and destroy; wall time of each, and its ratio to the floor; state per resource. Then
 * one job run of 5 s, 60 s and 600 s: polls spent and how long after the job's end `up` returns.
 * Prints the table and writes it, with a chart of up time against N, into docs/.
 *
 * Every kind and N runs BENCH_REPEAT times (default 3), the kinds taking turns so that a slow
 * spell of the machine hits them alike; the table shows each operation's median time.
 *
 * Settings (environment): BENCH_COUNTS (default "10,100,300"), BENCH_REPEAT (default 3),
 * BENCH_JOBS (seconds:speed pairs, default "5:1,60:1,600:10"), BENCH_SPEED (lifecycle speed of
 * the scaling runs, default 100).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { prepareWorkspace } from "./limits/workspace.mts";
import { startBenchService } from "./limits/service.mts";
import { measureJobWait, measureLifecycle, medianOf, OPERATIONS, type JobWaitResult, type Kind, type LifecycleResult } from "./limits/measure.mts";
import * as report from "./limits/report.mts";
import { upTimeChart } from "./limits/chart.mts";

const REPO_ROOT = path.resolve(import.meta.dirname, "..");
const WORK_ROOT = path.join(REPO_ROOT, "bench", ".work", "limits");
const DOCS = path.join(REPO_ROOT, "docs");
const KINDS: Kind[] = ["PublicKey", "ConnectionGroup", "Cluster", "JobRun"];

function listSetting(name: string, fallback: string): string[] {
  return (process.env[name] || fallback).split(",").map((item) => item.trim()).filter(Boolean);
}

function positiveNumber(name: string, text: string): number {
  const value = Number(text);
  if (!(value > 0) || !Number.isFinite(value)) throw new Error(`${name}: "${text}" is not a positive number`);
  return value;
}

function machine(): string {
  const cpu = os.cpus()[0]?.model.trim() ?? "unknown CPU";
  return `${os.cpus().length} x ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node.js ${process.version}, ${os.platform()} ${os.release()}`;
}

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

async function main(): Promise<void> {
  const counts = listSetting("BENCH_COUNTS", "10,100,300").map((text) => positiveNumber("BENCH_COUNTS", text));
  const jobs = listSetting("BENCH_JOBS", "5:1,60:1,600:10").map((pair) => {
    const [seconds, speed] = pair.split(":");
    return { seconds: positiveNumber("BENCH_JOBS", seconds ?? ""), speed: positiveNumber("BENCH_JOBS", speed ?? "") };
  });
  const speed = positiveNumber("BENCH_SPEED", process.env.BENCH_SPEED || "100");
  const repeat = positiveNumber("BENCH_REPEAT", process.env.BENCH_REPEAT || "3");
  const started = Date.now();
  const workspace = await prepareWorkspace(WORK_ROOT);

  const lifecycles: LifecycleResult[] = [];
  const service = await startBenchService(speed);
  try {
    for (const count of counts) {
      const runs = new Map<Kind, LifecycleResult[]>();
      for (let round = 1; round <= repeat; round++) {
        for (const kind of ["Floor", ...KINDS] as Kind[]) {
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
  const table = report.lifecycleTable(lifecycles);
  const waits = report.jobWaitTable(jobWaits);
  const verdicts = report.verdictLines(report.verdicts(lifecycles, jobWaits));
  console.log(`\n${table}\n\n${waits}\n\n${verdicts}\n\n${context}`);

  fs.mkdirSync(DOCS, { recursive: true });
  fs.writeFileSync(path.join(DOCS, "bench-up-time.svg"), upTimeChart(lifecycles, context));
  fs.writeFileSync(
    path.join(DOCS, "benchmark.md"),
    [
      "# Benchmark",
      "",
      "Written by `npm run bench` (bench/limits.mts); see the README's Benchmarks section for what each column means.",
      "",
      "![pulumi up time against N](bench-up-time.svg)",
      "",
      "```text",
      table,
      "",
      waits,
      "",
      verdicts,
      "```",
      "",
      context,
      "",
    ].join("\n"),
  );
  log(`wrote docs/bench-up-time.svg and docs/benchmark.md`);
}

main().catch((error: unknown) => {
  console.error(`[bench] ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
