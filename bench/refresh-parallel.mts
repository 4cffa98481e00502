/**
 * `npm run bench:refresh`: what a refresh of N objects of one kind costs in API calls however the
 * engine sends its reads: with its default parallelism, `--parallel 1` (each read waits for the
 * one before, as ordered or rate-limited runs ask) and `--parallel 64`. One `up` per kind, then
 * the three refreshes of it, against the bound ceil(N/100) + 2; the settings' proof (one call per
 * provider process, whatever N) is counted apart, as in `npm run bench`.
 * `npm run bench` measures the default only, with times; this adds the other two, calls only.
 * Then a stack of packages and nothing else, on both surfaces, in an account that held packages
 * before it (another stack's, a history), with the service's clock at speed 1 and at 100: the
 * listing must get past the older packages in one page however few reads come together.
 *
 * Settings (environment):
 * - BENCH_COUNT: N (default 1000).
 * - BENCH_KINDS: the kinds, as `npm run bench` names them (default: every kind of the provider's
 *   one list but the singletons, through the plugin: `<Kind>@plugin`).
 * - BENCH_HISTORY: the packages the account held before the packages' stack (default 200; 0
 *   leaves that table out); BENCH_HISTORY_COUNT: that stack's packages (default 200).
 */
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import type { RefreshOptions } from "@pulumi/pulumi/automation/index.js";
import { startBenchService, type BenchService } from "./limits/service.mts";
import { createBenchStack, prepareWorkspace, removeBenchStack, type BenchWorkspace } from "./limits/workspace.mts";
import { ownCallsOf, TARGETS } from "./limits/report.mts";
import { benchStackName, changed, programConfig, type Kind } from "./limits/measure.mts";
import { measuredKind, MEASURED_KINDS, onPlugin } from "./limits/kinds.mts";

const REPO_ROOT = path.resolve(import.meta.dirname, "..");
const PARALLELISMS: Array<{ name: string; options: RefreshOptions }> = [
  { name: "default", options: {} },
  { name: "--parallel 1", options: { parallel: 1 } },
  { name: "--parallel 64", options: { parallel: 64 } },
];

interface RefreshCost {
  calls: number;
  proofs: number;
  seconds: number;
}

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

async function refreshCosts(workspace: BenchWorkspace, service: BenchService, kind: Kind, count: number): Promise<RefreshCost[]> {
  // The engine saves the state once at the end of the up and the destroy rather than after each step: only refresh is measured.
  const stack = await createBenchStack(workspace, `${benchStackName(kind, count)}-refresh`, programConfig(kind, count, service), {
    PULUMI_SKIP_CHECKPOINTS: "true",
  });
  try {
    await stack.up();
    const costs: RefreshCost[] = [];
    for (const { options } of PARALLELISMS) {
      await service.resetCalls();
      const started = performance.now();
      const summary = (await stack.refresh(options)).summary.resourceChanges;
      const seconds = (performance.now() - started) / 1000;
      if (changed(summary) > 0) throw new Error(`${kind}: an unchanged refresh reported ${JSON.stringify(summary)}`);
      const calls = await service.calls();
      const own = ownCallsOf(calls).length;
      costs.push({ calls: own, proofs: calls.length - own, seconds });
    }
    await stack.destroy();
    return costs;
  } finally {
    await removeBenchStack(workspace, stack).catch(() => undefined);
  }
}

function wholeNumber(setting: string, fallback: string, least: number): number {
  const value = Number(process.env[setting] || fallback);
  if (!(value >= least) || !Number.isInteger(value)) throw new Error(`${setting}: "${process.env[setting]}" is not a whole number of at least ${least}`);
  return value;
}

const boundOf = (count: number) => Math.ceil(count / 100) + TARGETS.refreshExtraCalls;

/** A table row: the calls (seconds) at each parallelism, the proofs, and whether every one is within the bound. */
function row(label: string, costs: RefreshCost[], bound: number): string {
  const cells = costs.map((cost) => `${cost.calls} (${cost.seconds.toFixed(1)} s)`);
  log(`${label}: ${PARALLELISMS.map((p, i) => `${p.name} ${cells[i]}`).join(", ")}`);
  const over = costs.some((cost) => cost.calls > bound);
  return `| ${label} | ${cells.join(" | ")} | ${costs.map((cost) => cost.proofs).join(" ")} | ${over ? "over" : "within"} |`;
}

const header = (first: string) => [
  `| ${first} | ${PARALLELISMS.map((p) => p.name).join(" | ")} | proofs | bound |`,
  `|---|${PARALLELISMS.map(() => "---").join("|")}|---|---|`,
];

/** The packages' stack behind `history` older packages, on each surface, at each of the service's speeds. */
async function behindHistory(workspace: BenchWorkspace, history: number, count: number): Promise<string[]> {
  const rows: string[] = [];
  for (const speed of [1, 100]) {
    const service = await startBenchService(speed, { olderPackages: history });
    try {
      for (const kind of ["Package@plugin", "Package"] as const) {
        rows.push(row(`${kind}, speed ${speed}`, await refreshCosts(workspace, service, kind, count), boundOf(count)));
      }
    } finally {
      await service.close();
    }
  }
  return [
    "",
    `Refresh of ${count} packages alone, behind ${history} the account held before them, unchanged: calls as above; bound ${boundOf(count)}`,
    "",
    ...header("stack, the service's speed"),
    ...rows,
  ];
}

async function main(): Promise<void> {
  const count = wholeNumber("BENCH_COUNT", "1000", 1);
  const history = wholeNumber("BENCH_HISTORY", "200", 0);
  const historyCount = wholeNumber("BENCH_HISTORY_COUNT", "200", 1);
  const kinds = (process.env.BENCH_KINDS || MEASURED_KINDS.filter(onPlugin).join(","))
    .split(",")
    .map((kind) => kind.trim())
    .filter(Boolean)
    .map((name) => measuredKind("BENCH_KINDS", name));
  const bound = boundOf(count);
  const workspace = await prepareWorkspace(path.join(REPO_ROOT, "bench", ".work", "refresh"));
  const service = await startBenchService(100);
  const rows: string[] = [];
  try {
    for (const kind of kinds) rows.push(row(kind, await refreshCosts(workspace, service, kind, count), bound));
  } finally {
    await service.close();
  }
  const behind = history > 0 ? await behindHistory(workspace, history, historyCount) : [];
  console.log(
    [
      `Refresh of ${count} objects of a kind, unchanged: API calls besides the settings' proof (seconds); bound ceil(N/100) + ${TARGETS.refreshExtraCalls} = ${bound}`,
      "",
      ...header("kind"),
      ...rows,
      ...behind,
    ].join("\n"),
  );
}

main().catch((error: unknown) => {
  console.error(`[bench] ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
