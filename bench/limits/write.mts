/**
 * A run's page: the tables and targets printed, and written with the chart and the measurements
 * (bench-results.json) into one folder. `bench/render.mts` writes it again from a run's
 * bench-results.json, so a change of the tables needs no new run.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { upTimeChart } from "./chart.mts";
import type { JobWaitResult, LifecycleResult } from "./measure.mts";
import * as report from "./report.mts";

export interface BenchRun {
  /** "<date>, <machine>; <how it ran>". */
  context: string;
  lifecycles: LifecycleResult[];
  jobWaits: JobWaitResult[];
}

/** Writes the run's page into `output` and returns the files written. */
export function writeRun(output: string, run: BenchRun): string[] {
  const { context, lifecycles, jobWaits } = run;
  const tables = [report.lifecycleTable(lifecycles), report.cpuTable(lifecycles), jobWaits.length > 0 ? report.jobWaitTable(jobWaits) : ""].filter(Boolean);
  const verdicts = report.verdictLines(report.verdicts(lifecycles, jobWaits));
  console.log(`\n${[...tables, verdicts, context].join("\n\n")}`);

  fs.mkdirSync(output, { recursive: true });
  fs.writeFileSync(path.join(output, "bench-up-time.svg"), upTimeChart(lifecycles, context));
  fs.writeFileSync(
    path.join(output, "benchmark.md"),
    [
      "# Benchmark",
      "",
      "Written by `npm run bench` (bench/limits.mts); see docs/development.md's Benchmarks section for what each column means, and",
      "bench/limits.mts for the settings (BENCH_COUNTS, BENCH_KINDS, BENCH_REPEAT, BENCH_JOBS, BENCH_SPEED, BENCH_OUTPUT).",
      "The plugin's rows come first, each time with its ratio to the no-op plugin's floor and to the dynamic floor (`dyn`);",
      "then the dynamic resources', with their ratio to the dynamic floor. Each kind's row gives first its ratio to its own floor",
      "(`props`), the row after it: no-op resources with the kind's inputs, returning what the kind returned.",
      "Calls count every request the service answered. `proofs` is the provider's proof of its settings in each operation (up, preview,",
      "refresh, destroy): one read of its account per provider process, whatever N, counted apart from the calls of the resources.",
      "The CPU table counts the CLI and the processes it ran (engine, program, provider), not the emulator.",
      "",
      "![pulumi up time against N](bench-up-time.svg)",
      "",
      "```text",
      tables.join("\n\n"),
      "",
      verdicts,
      "```",
      "",
      context,
      "",
    ].join("\n"),
  );
  // The measurements themselves, every call of every operation, for comparing runs beyond the table.
  fs.writeFileSync(path.join(output, "bench-results.json"), `${JSON.stringify(run)}\n`);
  return ["bench-up-time.svg", "benchmark.md", "bench-results.json"].map((file) => path.join(output, file));
}
