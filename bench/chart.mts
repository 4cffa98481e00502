/**
 * The chart of docs/benchmark.md drawn from several runs of `npm run bench`, each kept in its
 * bench-results.json (the page's N = 100 and N = 1000 runs are separate):
 * `node bench/chart.mts <out.svg> <bench-results.json>...`.
 */
import * as fs from "node:fs";
import { upTimeChart } from "./limits/chart.mts";
import type { BenchRun } from "./limits/write.mts";

const [output, ...inputs] = process.argv.slice(2);
if (!output?.endsWith(".svg") || inputs.length === 0) {
  console.error("usage: node bench/chart.mts <out.svg> <bench-results.json>...");
  process.exit(2);
}
const runs = inputs.map((file) => JSON.parse(fs.readFileSync(file, "utf8")) as BenchRun);
// Each run's context is "<date, machine>; <how it ran>": the machine once, then how each run ran.
const [machine] = runs[0]!.context.split("; ");
const howEachRan = runs.map((run) => `N = ${[...new Set(run.lifecycles.map((l) => l.count))].join(", ")}: ${run.context.split("; ").slice(1).join(", ")}`);
fs.writeFileSync(
  output,
  upTimeChart(
    runs.flatMap((run) => run.lifecycles),
    [machine, ...howEachRan].join("; "),
  ),
);
console.error(`wrote ${output}`);
