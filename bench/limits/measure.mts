/**
 * One measured lifecycle of a stack: `up`, an unchanged `preview`, `refresh` and `destroy`, each
 * timed around the CLI call and with the API calls it made counted from the request log.
 */
import * as fs from "node:fs";
import { performance } from "node:perf_hooks";
import { runtime } from "@pulumi/pulumi";
import { readRecord, RECORDS, type ApiCall, type BenchService } from "./service.mts";
import { isFloor, ownFloorOf, shapeOf, type Kind } from "./kinds.mts";
import { createBenchStack, floorOutputsFile, removeBenchStack, stateFileOf, type BenchWorkspace } from "./workspace.mts";

export const OPERATIONS = ["up", "preview", "refresh", "destroy"] as const;
export type Operation = (typeof OPERATIONS)[number];
export type { BaseKind, Kind } from "./kinds.mts";

export interface OperationResult {
  seconds: number;
  /**
   * CPU seconds of the CLI and every process it started and waited for (the engine, the
   * language host, the program, the provider): unlike wall time, hardly moved by other work on
   * the machine. Undefined where the platform does not report it (it is read from /proc).
   */
  cpuSeconds?: number;
  calls: ApiCall[];
}

export interface LifecycleResult {
  kind: Kind;
  count: number;
  operations: Record<Operation, OperationResult>;
  /** The stored checkpoint after `up`, divided by the number of resources. */
  stateBytesPerResource: number;
  /** One resource's entry in the checkpoint, as the backend stores it. */
  stateEntryBytes: number;
  /** Resources `preview` and `refresh` would change; 0 for a provider without phantom diffs. */
  previewChanges: number;
  refreshChanges: number;
}

function resourceType(kind: Kind): string {
  if (isFloor(kind)) return kind.endsWith("@plugin") ? "noop:index:Thing" : "pulumi-nodejs:dynamic:Noop";
  return kind.endsWith("@plugin") ? `etl:index:${kind.slice(0, -"@plugin".length)}` : `pulumi-nodejs:dynamic/etl:${kind}`;
}

/** The stack configuration that makes the benchmark program declare `count` resources of `kind` against `service`. */
export function programConfig(kind: Kind, count: number, service: BenchService, extra: Record<string, number> = {}) {
  return {
    ...service.stackConfig,
    "bench:kind": { value: kind },
    "bench:count": { value: String(count) },
    ...Object.fromEntries(Object.entries(extra).map(([key, value]) => [`bench:${key}`, { value: String(value) }])),
  };
}

/** CPU seconds of this process's children that have ended, or undefined off Linux. */
function childrenCpuSeconds(): number | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync("/proc/self/stat", "utf8");
  } catch {
    return undefined;
  }
  // After the command name in parentheses: state is field 3, cutime and cstime fields 16 and 17.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[13]) + Number(fields[14]);
  // The kernel reports clock ticks, 100 a second on every Linux platform Node.js runs on.
  return Number.isFinite(ticks) ? ticks / 100 : undefined;
}

async function timed(service: BenchService, run: () => Promise<unknown>): Promise<OperationResult> {
  await service.resetCalls();
  const cpuBefore = childrenCpuSeconds();
  const started = performance.now();
  await run();
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = childrenCpuSeconds();
  const cpuSeconds = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  return { seconds, cpuSeconds, calls: await service.calls() };
}

type StateEntry = { type: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> };

/** The stored checkpoint's text and its entries of the measured kind. */
function storedEntries(workspace: BenchWorkspace, stackName: string, kind: Kind, count: number) {
  const text = fs.readFileSync(stateFileOf(workspace, stackName), "utf8");
  const resources: StateEntry[] = JSON.parse(text).checkpoint.latest.resources;
  const entries = resources.filter((resource) => resource.type === resourceType(kind));
  if (entries.length !== count) throw new Error(`expected ${count} ${kind} resources in the state, found ${entries.length}`);
  return { text, entries };
}

/** Bytes per resource of the stored checkpoint, and of one entry of the measured kind. */
function stateSize(text: string, entries: StateEntry[], count: number) {
  // The backend stores compact JSON.
  const entryBytes = entries.map((entry) => Buffer.byteLength(JSON.stringify(entry)));
  return {
    stateBytesPerResource: Buffer.byteLength(text) / count,
    stateEntryBytes: entryBytes.reduce((sum, bytes) => sum + bytes, 0) / count,
  };
}

/** A secret as the checkpoint stores it: `{ <signature key>: <secret signature>, ciphertext }`. */
const isSecret = (value: unknown) =>
  value !== null && typeof value === "object" && (value as Record<string, unknown>)[runtime.specialSigKey] === runtime.specialSecretSig;

/**
 * What the kind's first object returned beyond its inputs, for its own floor to return: the
 * dynamic resources' serialized provider left out (the floor has its own), and a secret the kind
 * returned as the plain "secret" (its own length is sealed).
 */
function recordOutputs(workspace: BenchWorkspace, kind: Kind, entries: StateEntry[]): void {
  const [first] = entries;
  const inputs = first?.inputs ?? {};
  const returned = Object.entries(first?.outputs ?? {}).filter(([name]) => !(name in inputs) && name !== "__provider");
  const plain = returned.map(([name, value]) => [name, isSecret(value) ? "secret" : value]);
  fs.writeFileSync(floorOutputsFile(workspace, ownFloorOf(kind)), JSON.stringify(Object.fromEntries(plain)));
}

/** After a kind's `up`: what its first object returned beyond its inputs, for its own floor to return. */
export function recordOwnFloorOutputs(workspace: BenchWorkspace, stackName: string, kind: Kind, count: number): void {
  recordOutputs(workspace, kind, storedEntries(workspace, stackName, kind, count).entries);
}

/** The environment of a kind's own floor: the file of what the kind returned, which its no-op provider adds to each object's outputs. */
export function floorEnv(workspace: BenchWorkspace, kind: Kind): Record<string, string> {
  const shape = shapeOf(kind);
  if (shape === undefined) return {};
  const file = floorOutputsFile(workspace, kind);
  if (!fs.existsSync(file)) throw new Error(`${kind} returns what ${shape} returned: measure ${shape} on the same surface first`);
  return { BENCH_FLOOR_OUTPUTS: file };
}

/** Resources an operation's summary reports as anything but unchanged. */
export const changed = (summary: Record<string, number> | undefined) =>
  Object.entries(summary ?? {})
    .filter(([op]) => op !== "same")
    .reduce((sum, [, n]) => sum + n, 0);

/** A stack's name for `count` resources of `kind`: `publickey-plugin-1000`. */
export const benchStackName = (kind: Kind, count: number) => `${kind.toLowerCase().replace("@", "-")}-${count}`;

export async function measureLifecycle(workspace: BenchWorkspace, service: BenchService, kind: Kind, count: number): Promise<LifecycleResult> {
  const stackName = benchStackName(kind, count);
  const stack = await createBenchStack(workspace, stackName, programConfig(kind, count, service), floorEnv(workspace, kind));
  try {
    const up = await timed(service, () => stack.up());
    const { text, entries } = storedEntries(workspace, stackName, kind, count);
    if (!isFloor(kind)) recordOutputs(workspace, kind, entries);
    const size = stateSize(text, entries, count);
    let previewSummary: Record<string, number> | undefined;
    const preview = await timed(service, async () => (previewSummary = (await stack.preview()).changeSummary));
    let refreshSummary: Record<string, number> | undefined;
    const refresh = await timed(service, async () => (refreshSummary = (await stack.refresh()).summary.resourceChanges));
    const destroy = await timed(service, () => stack.destroy());
    return {
      kind,
      count,
      operations: { up, preview, refresh, destroy },
      ...size,
      previewChanges: changed(previewSummary),
      refreshChanges: changed(refreshSummary),
    };
  } finally {
    await removeBenchStack(workspace, stack).catch(() => undefined);
  }
}

/**
 * Several runs of one kind and N as one result: the median time and CPU time of each operation
 * (the machine's speed varies between runs); calls and state size are the same in every run, so
 * the first's.
 */
export function medianOf(runs: LifecycleResult[]): LifecycleResult {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  };
  const first = runs[0]!;
  const operations = Object.fromEntries(
    OPERATIONS.map((op) => {
      const cpu = runs.map((run) => run.operations[op].cpuSeconds);
      return [
        op,
        {
          calls: first.operations[op].calls,
          seconds: median(runs.map((run) => run.operations[op].seconds)),
          cpuSeconds: cpu.every((value) => value !== undefined) ? median(cpu as number[]) : undefined,
        },
      ];
    }),
  ) as Record<Operation, OperationResult>;
  return {
    ...first,
    operations,
    previewChanges: Math.max(...runs.map((run) => run.previewChanges)),
    refreshChanges: Math.max(...runs.map((run) => run.refreshChanges)),
  };
}

export interface JobWaitResult {
  seconds: number;
  speed: number;
  /** Reads of the job after the POST that started it. */
  polls: number;
  /** From the job's creation to its end, in real milliseconds. */
  runMs: number;
  /** From the job's end to `up` returning. */
  delayMs: number;
  upSeconds: number;
}

/** One job of `seconds` simulated seconds in a stack of its own, on a one-node cluster. */
export async function measureJobWait(workspace: BenchWorkspace, service: BenchService, seconds: number, speed: number): Promise<JobWaitResult> {
  const stackName = `job-wait-${seconds}s`;
  const config = programConfig("JobRun", 1, service, {
    clusterId: RECORDS.singleClusterId,
    packageId: RECORDS.packageBySeconds[seconds]!,
  });
  const stack = await createBenchStack(workspace, stackName, config);
  try {
    const up = await timed(service, () => stack.up());
    const upReturned = Date.now();
    const start = up.calls.find((call) => call.method === "POST" && call.path === "/jobs");
    if (!start) throw new Error("the job run's `up` started no job");
    const resources: Array<{ type: string; id?: string }> = (await stack.exportStack()).deployment.resources ?? [];
    const jobId = resources.find((resource) => resource.type === resourceType("JobRun"))?.id;
    if (!jobId) throw new Error("the job run is not in the stack's state after `up`");
    const job = await readRecord(service, `/jobs/${jobId}`);
    const ended = Date.parse(job.completed_at ?? job.failed_at ?? job.updated_at);
    await stack.destroy();
    return {
      seconds,
      speed,
      polls: up.calls.filter((call) => call.method === "GET" && call.path === `/jobs/${jobId}`).length,
      runMs: ended - Date.parse(job.created_at),
      delayMs: upReturned - ended,
      upSeconds: up.seconds,
    };
  } finally {
    await removeBenchStack(workspace, stack).catch(() => undefined);
  }
}
