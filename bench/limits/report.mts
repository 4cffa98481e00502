/**
 * The benchmark's table: API calls per resource, wall time next to the floor, state per
 * resource, job waits, each with its target and whether it was met.
 */
import { isFloor, isSurfaceFloor, onPlugin, ownFloorOf } from "./kinds.mts";
import { OPERATIONS, type JobWaitResult, type LifecycleResult, type Operation, type OperationResult } from "./measure.mts";
import { isSettingsProof, type ApiCall } from "./service.mts";

export const TARGETS = {
  /** Calls per resource besides waits and the settings' proof: create, unchanged preview, destroy. */
  calls: { up: 1, preview: 0, destroy: 1 } as Record<Exclude<Operation, "refresh">, number>,
  /** A refresh of N objects of one kind reads them a listing page (100 objects) at a time: ceil(N / 100) + this many calls. */
  refreshExtraCalls: 2,
  /** The provider proves its settings once per operation, whatever N. */
  proofsPerOperation: 1,
  /** Wall time against the floor's of the same surface at the same N, for the operations named. */
  timeRatios: [
    { count: 100, ratio: 1.15, operations: ["up", "preview", "refresh", "destroy"] as Operation[] },
    { count: 1000, ratio: 1.3, operations: ["up", "preview", "refresh", "destroy"] as Operation[] },
  ],
  /** Wall time against the kind's own floor (its properties, no provider work) at these N, every operation that waits on no object. */
  ownFloorRatio: { counts: [300, 1000], ratio: 1.15 },
  stateBytesPerResource: 2048,
  pollsFor600s: 15,
  /** The delay after a job's end: at most this share of the run, or the floor below. */
  delayShare: 0.05,
  delayFloorMs: 2000,
} as const;

const pad = (text: string, width: number) => text.padStart(width);
const padEnd = (text: string, width: number) => text.padEnd(width);
/** The kind column, as wide as the longest kind measured (`ConnectionGroup@plugin`). */
const kindWidth = (results: LifecycleResult[]) => Math.max(16, ...results.map((result) => result.kind.length));

const proofsOf = (result: OperationResult) => result.calls.filter(isSettingsProof).length;
/** The operation's calls but the settings' proof: what its resources cost, which the bounds are about. */
export const ownCallsOf = (calls: ApiCall[]) => calls.filter((call) => !isSettingsProof(call));

/**
 * Calls per resource, split into the operation's own and the reads it made waiting: only create
 * (`up`) and destroy wait (a cluster until it is ready or gone, a job until it ends). The
 * settings' proof is neither: one call per operation, counted in a column of its own.
 */
function callsPerResource(result: OperationResult, count: number, operation: Operation): { own: number; waits: number } {
  const waiting = operation === "up" || operation === "destroy";
  const calls = ownCallsOf(result.calls);
  const waits = waiting ? calls.filter((call) => call.method === "GET").length : 0;
  return { own: (calls.length - waits) / count, waits: waits / count };
}

/**
 * "1.00" or, when the operation also waited, "2.00 = 1.00 + 1.00 wait"; a refresh's calls per
 * 100 objects, since it reads a page of 100 at a time. The settings' proof is in none of them.
 */
function callsCell(result: OperationResult, count: number, operation: Operation): string {
  if (operation === "refresh") return ((100 * ownCallsOf(result.calls).length) / count).toFixed(2);
  const { own, waits } = callsPerResource(result, count, operation);
  if (waits === 0) return own.toFixed(2);
  return `${(own + waits).toFixed(2)} = ${own.toFixed(2)} + ${waits.toFixed(2)} wait`;
}

/**
 * "12.3 (1.05 props, 1.10, 0.95 dyn)": the time, its ratio to the kind's own floor (the engine's
 * cost of its properties), to its surface's floor and, for a plugin kind, to the dynamic floor.
 */
function ratioCell(value: number, floors: Floors, pick: (operations: LifecycleResult["operations"]) => number | undefined): string {
  const ratio = (floor: LifecycleResult | undefined) => {
    const base = floor === undefined ? undefined : pick(floor.operations);
    return base === undefined || base === 0 ? undefined : (value / base).toFixed(2);
  };
  const props = ratio(floors.props);
  const surface = ratio(floors.surface);
  const dynamic = floors.dynamic === floors.surface ? undefined : ratio(floors.dynamic);
  const ratios = [props === undefined ? undefined : `${props} props`, surface, dynamic === undefined ? undefined : `${dynamic} dyn`].filter(Boolean);
  return ratios.length === 0 ? value.toFixed(1) : `${value.toFixed(1)} (${ratios.join(", ")})`;
}

/** The floors a result is compared with: its own (its properties), its surface's, and the dynamic resources'. */
interface Floors {
  props?: LifecycleResult;
  surface?: LifecycleResult;
  dynamic?: LifecycleResult;
}

const resultOf = (results: LifecycleResult[], kind: string, count: number) => results.find((candidate) => candidate.kind === kind && candidate.count === count);

/** The floor of the result's surface at its N: the no-op plugin's for a plugin kind, the no-op dynamic resources' otherwise. */
export function floorOf(results: LifecycleResult[], result: LifecycleResult): LifecycleResult | undefined {
  return resultOf(results, onPlugin(result.kind) ? "Floor@plugin" : "Floor", result.count);
}

function floorsOf(results: LifecycleResult[], result: LifecycleResult): Floors {
  if (isFloor(result.kind)) return {};
  return {
    props: resultOf(results, ownFloorOf(result.kind), result.count),
    surface: floorOf(results, result),
    dynamic: resultOf(results, "Floor", result.count),
  };
}

/** The plugin's rows first, its floor leading them, then the dynamic resources'; by N within each; each kind's own floor right after it, as measured. */
export function inReportOrder(results: LifecycleResult[]): LifecycleResult[] {
  const rank = (result: LifecycleResult) => (onPlugin(result.kind) ? 0 : 2) + (isSurfaceFloor(result.kind) ? 0 : 1);
  return [...results].sort((a, b) => a.count - b.count || rank(a) - rank(b));
}

export function lifecycleTable(results: LifecycleResult[]): string {
  const header = [
    padEnd("kind", kindWidth(results)),
    pad("N", 4),
    ...["create", "preview", "refresh /100", "destroy"].map((title) => pad(`calls ${title}`, 24)),
    pad("proofs", 8),
    ...["up", "preview", "refresh", "destroy"].map((title) => pad(`${title} s (x floor)`, 34)),
    pad("state B/res", 12),
    pad("entry B", 8),
  ].join(" ");
  const rows = inReportOrder(results).map((result) => {
    const floors = floorsOf(results, result);
    const ops = OPERATIONS;
    return [
      padEnd(result.kind, kindWidth(results)),
      pad(String(result.count), 4),
      ...ops.map((op) => pad(isFloor(result.kind) ? "-" : callsCell(result.operations[op], result.count, op), 24)),
      pad(isFloor(result.kind) ? "-" : ops.map((op) => proofsOf(result.operations[op])).join(" "), 8),
      ...ops.map((op) =>
        pad(
          ratioCell(result.operations[op].seconds, floors, (operations) => operations[op].seconds),
          34,
        ),
      ),
      pad(Math.round(result.stateBytesPerResource).toLocaleString("en-US"), 12),
      pad(Math.round(result.stateEntryBytes).toLocaleString("en-US"), 8),
    ].join(" ");
  });
  return [header, "-".repeat(header.length), ...rows].join("\n");
}

/**
 * CPU seconds of the CLI and the processes it ran (engine, program, provider), next to the
 * floor's: what each operation cost the machine, which other work running beside the benchmark
 * hardly moves, unlike wall time. Empty where the platform does not report it.
 */
export function cpuTable(results: LifecycleResult[]): string {
  const ops = OPERATIONS;
  if (results.some((result) => ops.some((op) => result.operations[op].cpuSeconds === undefined))) return "";
  const header = [padEnd("kind", kindWidth(results)), pad("N", 4), ...ops.map((title) => pad(`${title} cpu s (x floor)`, 36))].join(" ");
  const rows = inReportOrder(results).map((result) => {
    const floors = floorsOf(results, result);
    const cells = ops.map((op) =>
      pad(
        ratioCell(result.operations[op].cpuSeconds!, floors, (operations) => operations[op].cpuSeconds),
        36,
      ),
    );
    return [padEnd(result.kind, kindWidth(results)), pad(String(result.count), 4), ...cells].join(" ");
  });
  return [header, "-".repeat(header.length), ...rows].join("\n");
}

export function jobWaitTable(results: JobWaitResult[]): string {
  const header = ["job", "speed", "real run s", "polls", "up after end s", "share of run", "allowed s"]
    .map((t, i) => (i === 0 ? padEnd(t, 8) : pad(t, 14)))
    .join(" ");
  const rows = results.map((result) => {
    const allowedMs = Math.max(TARGETS.delayShare * result.runMs, TARGETS.delayFloorMs);
    return [
      padEnd(`${result.seconds} s`, 8),
      pad(`x${result.speed}`, 14),
      pad((result.runMs / 1000).toFixed(1), 14),
      pad(String(result.polls), 14),
      pad((result.delayMs / 1000).toFixed(2), 14),
      pad(`${((100 * result.delayMs) / result.runMs).toFixed(1)} %`, 14),
      pad((allowedMs / 1000).toFixed(2), 14),
    ].join(" ");
  });
  return [header, "-".repeat(header.length), ...rows].join("\n");
}

export interface Verdict {
  target: string;
  met: boolean;
  measured: string;
}

/** Every target of the benchmark against what this run measured. */
export function verdicts(results: LifecycleResult[], jobWaits: JobWaitResult[]): Verdict[] {
  const out: Verdict[] = [];
  for (const result of inReportOrder(results).filter((r) => !isFloor(r.kind))) {
    const ops = ["up", "preview", "destroy"] as const;
    const own = ops.map((op) => callsPerResource(result.operations[op], result.count, op).own);
    out.push({
      target: `${result.kind} N=${result.count}: calls per resource besides waits and the settings' proof ≤ ${ops.map((op) => TARGETS.calls[op]).join(", ")} (create, preview, destroy)`,
      met: own.every((calls, i) => calls <= TARGETS.calls[ops[i]!]),
      measured: own.map((calls) => calls.toFixed(2)).join(", "),
    });
    const proofs = OPERATIONS.map((op) => proofsOf(result.operations[op]));
    out.push({
      target: `${result.kind} N=${result.count}: the settings proven with ${TARGETS.proofsPerOperation} call per operation (up, preview, refresh, destroy)`,
      met: proofs.every((n) => n === TARGETS.proofsPerOperation),
      measured: proofs.join(", "),
    });
    const refreshCalls = ownCallsOf(result.operations.refresh.calls).length;
    const allowedRefreshCalls = Math.ceil(result.count / 100) + TARGETS.refreshExtraCalls;
    out.push({
      target: `${result.kind} N=${result.count}: refresh ≤ ${allowedRefreshCalls} calls (ceil(N/100) + ${TARGETS.refreshExtraCalls})`,
      met: refreshCalls <= allowedRefreshCalls,
      measured: `${refreshCalls} calls`,
    });
    out.push({
      target: `${result.kind} N=${result.count}: unchanged preview and refresh change nothing`,
      met: result.previewChanges === 0 && result.refreshChanges === 0,
      measured: `${result.previewChanges} and ${result.refreshChanges} changes`,
    });
    out.push({
      target: `${result.kind} N=${result.count}: state ≤ ${TARGETS.stateBytesPerResource} bytes per resource`,
      met: result.stateBytesPerResource <= TARGETS.stateBytesPerResource,
      measured: `${Math.round(result.stateBytesPerResource)} bytes`,
    });
    const floor = floorOf(results, result);
    for (const target of TARGETS.timeRatios.filter((t) => t.count === result.count)) {
      if (!floor) continue;
      for (const op of target.operations) {
        const ratio = result.operations[op].seconds / floor.operations[op].seconds;
        out.push({
          target: `${result.kind} N=${result.count}: ${op} time ≤ ${target.ratio} x ${floor.kind === "Floor" ? "the dynamic floor" : "the plugin floor"}`,
          met: ratio <= target.ratio,
          measured: `${ratio.toFixed(2)} x`,
        });
      }
    }
  }
  out.push(...ownFloorVerdicts(results));
  for (const wait of jobWaits) {
    const allowedMs = Math.max(TARGETS.delayShare * wait.runMs, TARGETS.delayFloorMs);
    out.push({
      target: `job of ${wait.seconds} s: up returns ≤ ${(allowedMs / 1000).toFixed(2)} s after the job ends`,
      met: wait.delayMs <= allowedMs,
      measured: `${(wait.delayMs / 1000).toFixed(2)} s`,
    });
    if (wait.seconds === 600)
      out.push({ target: `job of 600 s: ≤ ${TARGETS.pollsFor600s} polls`, met: wait.polls <= TARGETS.pollsFor600s, measured: `${wait.polls} polls` });
  }
  return out;
}

/** Each kind within the target of its own floor's time at the N the target names, but in an operation that waits on its objects. */
function ownFloorVerdicts(results: LifecycleResult[]): Verdict[] {
  const { counts, ratio: allowed } = TARGETS.ownFloorRatio;
  return inReportOrder(results)
    .filter((result) => !isFloor(result.kind) && (counts as readonly number[]).includes(result.count))
    .flatMap((result) => {
      const floor = resultOf(results, ownFloorOf(result.kind), result.count);
      if (floor === undefined) return [];
      const unwaited = OPERATIONS.filter((op) => callsPerResource(result.operations[op], result.count, op).waits === 0);
      return unwaited.map((op) => {
        const ratio = result.operations[op].seconds / floor.operations[op].seconds;
        return {
          target: `${result.kind} N=${result.count}: ${op} time ≤ ${allowed} x its own floor`,
          met: ratio <= allowed,
          measured: `${ratio.toFixed(2)} x`,
        };
      });
    });
}

export function verdictLines(list: Verdict[]): string {
  const missed = list.filter((v) => !v.met);
  const lines = [`targets met: ${list.length - missed.length} of ${list.length}`];
  for (const verdict of missed) lines.push(`  MISSED ${verdict.target}: ${verdict.measured}`);
  return lines.join("\n");
}
