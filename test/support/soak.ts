/**
 * Soak driver: one stack holding every resource kind goes through up, refresh and destroy again
 * and again while the local service injects faults, and after every attempt of every operation
 * the service's records are compared with the stack's state. What it proves, or disproves, is
 * that faults never make the provider lose track of an object or create one twice.
 *
 * Used by test/engine/soak.test.ts (a short run in CI) and bench/soak.cts (a long one).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import type { ResourceKind } from "pulumi-etl/plugin";
import { createTestStack, type TestStack } from "./engine";
import { freshEd25519Key } from "./keys";
import { startLocalService, type LocalService } from "./service";
import { declare as declareOn, type Surface } from "./surfaces";
import { baselineOf, findDiscrepancies, stateResources, type Baseline, type CheckContext, type Discrepancy, type Finding, type Phase } from "./soak-ledger";

export { freshEd25519Key } from "./keys";
export { findDiscrepancies, type Baseline, type Discrepancy, type Kind, type StateResource } from "./soak-ledger";

export const FAULT_KINDS = ["500", "503", "429", "latency", "reset_before", "reset_after"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * What happens to a whole operation rather than to one request: the service goes away for
 * longer than the retry budget (and comes back), or the deployment is cancelled (SIGINT to the
 * CLI, as Ctrl-C or a CI runner sends it). Either lands at a random moment of the operation, but
 * each kind cuts one early up of the run for sure.
 */
export const INTERRUPTIONS = ["outage", "cancel"] as const;
export type Interruption = (typeof INTERRUPTIONS)[number];
/** An interruption planned for one attempt: what, and how long after the operation starts. */
interface Planned {
  kind: Interruption;
  afterMs: number;
}
/** The soak stack's retry budget, and an outage that outlasts it. */
const RETRY_BUDGET_SECONDS = 3;
const OUTAGE_MS = 5_000;
/** An interruption lands this long after the operation starts, at random. */
const INTERRUPT_WITHIN_MS = { min: 300, max: 2_500 } as const;

export interface SoakOptions {
  /** Which way the stack reaches the provider (default: the dynamic resources). */
  surface?: Surface;
  cycles: number;
  /** Probability of a fault per API request, 0 to 1. */
  faultRate: number;
  kinds?: readonly FaultKind[];
  /** Probability, 0 to 1, that an operation attempt of a faulty cycle is interrupted; default the fault rate. */
  interruptRate?: number;
  interruptions?: readonly Interruption[];
  /** Seed of the first faulty cycle; cycle n uses seed + n, so a run can be replayed. */
  seed?: number;
  /** Attempts no interruption reached that may fail before the cycle gives up on the operation. */
  attempts?: number;
  /** Lifecycle speed-up of the local service. */
  speed?: number;
  parallel?: number;
  log?: (line: string) => void;
}

export interface SoakReport {
  cycles: number;
  faultRate: number;
  seed: number;
  /** Engine operations run (up, refresh, destroy), every attempt counted. */
  operations: number;
  failedAttempts: number;
  /** Resource operations the cycles asked for: every resource created, read and deleted once per cycle. */
  resourceOperations: number;
  faultsInjected: Record<FaultKind, number>;
  interrupted: Record<Interruption, number>;
  /** API requests that got 429, injected or not. */
  status429: number;
  /** API requests of the faulty cycles. */
  apiRequests: number;
  /** API requests of one fault-free cycle, measured before the faulty ones. */
  baselineRequestsPerCycle: number;
  /** (apiRequests - baseline x cycles) per 100 resource operations. */
  extraCallsPer100Operations: number;
  discrepancies: Discrepancy[];
  /** First line of each failed attempt's error, with the phase, for reading the faults' effect. */
  failures: string[];
  cycleSeconds: number[];
}

// ---- the stack

const KEYS = 4;
const GROUPS = 3;
const CLUSTERS = 2;
const RUNS = 3;
const CONNECTIONS_MADE = 2;
const MEMBERS = 2;
const SCHEDULES = 1;
const HOOKS = 1;
const PACKAGES = 1;
const RESOURCES = KEYS + GROUPS + CLUSTERS + RUNS + CONNECTIONS_MADE + MEMBERS + SCHEDULES + HOOKS + PACKAGES;
/** The soak's connections' password: like the API key, it may appear in no file and no output. */
const CONNECTION_PASSWORD = "soak-connection-SECRET-pw";

const RUN_CLUSTER = { id: 201, name: "soak-runner", type: "production" as const, nodes: 4, terminateOnIdle: false };
const SHORT_PACKAGE = { id: 101, name: "soak-short", run: { seconds: 3, outcome: "completed" as const, outputs: [{ name: "out", records: 10 }] } };
const CONNECTIONS = [
  { id: 301, name: "pg", type: "postgres" },
  { id: 302, name: "my", type: "mysql" },
  { id: 303, name: "bucket", type: "s3" },
];


/**
 * Every service object the soak makes carries its resource's name: keys, groups and clusters in
 * their `name`, jobs in their `soak_run` variable (with the cycle in `soak_cycle`, since each
 * cycle runs the packages anew and earlier runs stay on the service).
 */
/** A database table copied to the bucket. */
function soakFlow(i: number) {
  return {
    components: [
      { name: "rows", type: "source", connection: { id: CONNECTIONS[0]!.id }, table: `soak_${i}` },
      { name: "lake", type: "destination", connection: { id: CONNECTIONS[2]!.id }, path: `soak/${i}` },
    ],
    edges: [{ from: "rows", to: "lake" }],
  };
}

const keyName = (i: number) => `soak-key-${i}`;
const groupName = (i: number) => `soak-group-${i}`;
const clusterName = (i: number) => `soak-cluster-${i}`;
const runName = (i: number) => `soak-run-${i}`;
const connectionName = (i: number) => `soak-connection-${i}`;
const memberEmail = (i: number) => `soak-member-${i}@example.com`;

function soakProgram(surface: Surface, keys: string[], cycle: () => number) {
  return async () => {
    const declare = (kind: ResourceKind, name: string, args: Record<string, unknown>) => declareOn(surface, kind, name, args);
    for (const [i, publicKey] of keys.entries()) declare("PublicKey", keyName(i), { publicKey, name: keyName(i) });
    for (let i = 0; i < GROUPS; i++) {
      declare("ConnectionGroup", groupName(i), {
        name: groupName(i),
        description: `soak group ${i}`,
        connections: CONNECTIONS.slice(0, i + 1).map(({ id, type }) => ({ id, type })),
      });
    }
    for (let i = 0; i < CLUSTERS; i++) declare("Cluster", clusterName(i), { name: clusterName(i), nodes: 1, timeoutSeconds: 600 });
    for (let i = 0; i < RUNS; i++) {
      declare("JobRun", runName(i), {
        clusterId: RUN_CLUSTER.id,
        packageId: SHORT_PACKAGE.id,
        variables: { soak_run: runName(i), soak_cycle: String(cycle()) },
        timeoutSeconds: 600,
      });
    }
    for (let i = 0; i < CONNECTIONS_MADE; i++) {
      declare("Connection", connectionName(i), { type: "postgres", name: connectionName(i), host: `db-${i}.example.com`, username: "soak", password: CONNECTION_PASSWORD });
    }
    for (let i = 0; i < MEMBERS; i++) declare("Member", `soak-member-${i}`, { email: memberEmail(i), role: i === 0 ? "admin" : "member" });
    // A start years ahead: the schedule never fires during the soak, so it makes no jobs of its own.
    for (let i = 0; i < SCHEDULES; i++) {
      declare("Schedule", `soak-schedule-${i}`, { name: `soak-schedule-${i}`, startAt: "2040-01-01T02:00:00Z", interval: { amount: 1, unit: "days" }, task: { packages: [{ packageId: SHORT_PACKAGE.id }] } });
    }
    for (let i = 0; i < HOOKS; i++) {
      declare("Hook", `soak-hook-${i}`, { type: "email", name: `soak-hook-${i}`, events: ["job.failed"], settings: { emails: ["soak@example.com"] } });
    }
    for (let i = 0; i < PACKAGES; i++) declare("Package", `soak-package-${i}`, { name: `soak-package-${i}`, dataFlow: soakFlow(i) });
  };
}

// ---- secrets

/** Every file below `dir`. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

/** The key itself, the Basic credentials made from it, and the connections' password, wherever text of the run lands. */
function secretForms(apiKey: string): string[] {
  return [apiKey, Buffer.from(`${apiKey}:`).toString("base64"), CONNECTION_PASSWORD];
}

function leaksIn(text: string, forms: string[]): boolean {
  return forms.some((form) => text.includes(form));
}

// ---- the run

interface Counters {
  operations: number;
  failedAttempts: number;
  failures: string[];
  discrepancies: Discrepancy[];
  seen: Set<string>;
  cliOutput: string[];
}

class Soak {
  private readonly counters: Counters = { operations: 0, failedAttempts: 0, failures: [], discrepancies: [], seen: new Set(), cliOutput: [] };
  private cycle = 0;

  constructor(
    private readonly service: LocalService,
    private readonly test: TestStack,
    private readonly baseline: Baseline,
    private readonly options: Required<Omit<SoakOptions, "log" | "seed">> & { log: (line: string) => void },
  ) {}

  get results(): Counters {
    return this.counters;
  }

  currentCycle(): number {
    return this.cycle;
  }

  private record(context: CheckContext, found: Finding[]): void {
    for (const d of found) {
      // The same orphan seen by every later check is one discrepancy, reported where it appeared.
      if (this.counters.seen.has(d.key)) continue;
      this.counters.seen.add(d.key);
      const { key: _key, ...rest } = d;
      const discrepancy = { cycle: context.cycle, phase: context.phase, attempt: context.attempt, ...rest };
      this.counters.discrepancies.push(discrepancy);
      this.options.log(`  DISCREPANCY ${describeDiscrepancy(discrepancy)}`);
    }
  }

  async check(context: CheckContext): Promise<void> {
    const [serviceState, state] = await Promise.all([this.service.state(), stateResources(this.test)]);
    this.record(context, findDiscrepancies(serviceState.accounts[0], state, this.baseline, context));
  }

  /**
   * Runs the operation; a cancellation that landed counts as a failure even when the CLI ends
   * with success (a deployment cancelled before its first step does), since the operation was
   * not carried out and must be run again.
   */
  private async run(phase: Phase, interruption?: Planned): Promise<void> {
    const onOutput = (text: string) => this.counters.cliOutput.push(text);
    const { parallel } = this.options;
    const cancel = new AbortController();
    const options = { parallel, onOutput, signal: cancel.signal };
    const operation = phase === "up" ? this.test.stack.up(options) : phase === "refresh" ? this.test.stack.refresh(options) : this.test.stack.destroy(options);
    let finished = false;
    const interrupting = interruption === undefined ? undefined : this.interrupt(interruption, cancel, () => finished);
    try {
      await operation;
    } catch (error) {
      // A SIGINT that lands before the CLI listens for it ends the CLI at once, its lock left
      // behind: the way out the README gives a user is `pulumi cancel`.
      if (cancel.signal.aborted) await this.releaseStaleLock();
      throw error;
    } finally {
      finished = true;
      await interrupting;
    }
    if (cancel.signal.aborted) throw new Error("error: the operation was cancelled (SIGINT) before it finished");
  }

  private async releaseStaleLock(): Promise<void> {
    await this.test.stack.cancel().catch(() => undefined);
  }

  /**
   * Lands the interruption at a random moment, unless the operation is over by then; resolves
   * once the service is back, for the checks.
   */
  private async interrupt({ kind, afterMs }: Planned, cancel: AbortController, finished: () => boolean): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, afterMs));
    if (finished()) return;
    this.interrupted[kind]++;
    if (kind === "cancel") return cancel.abort();
    await this.service.emulator.outage(OUTAGE_MS);
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS + 100));
  }

  /**
   * Whether and how the next attempt is interrupted; only in faulty cycles. The first up of
   * faulty cycle n is cut by the n-th kind of interruption at the earliest moment, so every kind
   * lands in a run however the draws fall; the other attempts draw theirs.
   */
  private nextInterruption(phase: Phase, attempt: number): Planned | undefined {
    const kinds = this.options.interruptions;
    const { min, max } = INTERRUPT_WITHIN_MS;
    if (this.rate === 0 || kinds.length === 0 || this.options.interruptRate === 0) return undefined;
    if (phase === "up" && attempt === 1 && this.cycle <= kinds.length) return { kind: kinds[this.cycle - 1]!, afterMs: min };
    if (this.random() >= this.options.interruptRate) return undefined;
    return { kind: kinds[Math.floor(this.random() * kinds.length)]!, afterMs: min + Math.floor(this.random() * (max - min)) };
  }

  readonly interrupted = Object.fromEntries(INTERRUPTIONS.map((k) => [k, 0])) as Record<Interruption, number>;
  private random: () => number = Math.random;
  private rate = 0;

  /**
   * Runs the operation until it succeeds, checking after every attempt. An attempt an outage or a
   * cancellation reached was meant to fail, so only the others count: if `attempts` of those fail
   * to faults alone, that is reported, and the operation is finished with faults off so the next
   * cycle starts from a stack in the intended shape.
   */
  async operation(phase: Phase): Promise<void> {
    let attempt = 0;
    let uninterruptedFailures = 0;
    // Bounded even when every attempt is interrupted (an interruption rate of 1).
    while (uninterruptedFailures < this.options.attempts && attempt < 4 * this.options.attempts) {
      attempt++;
      this.counters.operations++;
      const interruptedBefore = this.interruptions();
      const failed = await this.run(phase, this.nextInterruption(phase, attempt)).then(
        () => false,
        (error: unknown) => {
          this.counters.failedAttempts++;
          const message = String((error as Error)?.message ?? error);
          this.counters.cliOutput.push(message);
          this.counters.failures.push(`cycle ${this.cycle} ${phase} attempt ${attempt}: ${firstErrorLine(message)}`);
          return true;
        },
      );
      await this.check({ cycle: this.cycle, phase, attempt, failed });
      if (!failed) return;
      if (this.interruptions() === interruptedBefore) uninterruptedFailures++;
    }
    this.record({ cycle: this.cycle, phase, attempt, failed: true }, [
      { problem: "gave-up", kind: "stack", key: `gave-up|${this.cycle}|${phase}`, detail: `${phase} failed ${attempt} times, ${uninterruptedFailures} of them to faults alone` },
    ]);
    await this.faults(0, 0);
    this.counters.operations++;
    const failed = await this.run(phase).then(() => false, () => true);
    await this.check({ cycle: this.cycle, phase, attempt: attempt + 1, failed });
  }

  private interruptions(): number {
    return INTERRUPTIONS.reduce((sum, kind) => sum + this.interrupted[kind], 0);
  }

  /** Faults injected so far; the service's counts restart with every new setting, so they are added up here. */
  readonly injected = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;

  async faults(rate: number, seed: number): Promise<void> {
    for (const [kind, count] of Object.entries(await injected(this.service))) this.injected[kind as FaultKind] += count;
    const response = await fetch(`${this.service.url}/_emulator/faults`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rate, kinds: this.options.kinds, seed }),
    });
    if (!response.ok) throw new Error(`setting faults failed: ${response.status} ${await response.text()}`);
  }

  async runCycle(cycle: number, rate: number, seed: number): Promise<void> {
    this.cycle = cycle;
    this.rate = rate;
    this.random = mulberry32(seed);
    await this.faults(rate, seed);
    for (const phase of ["up", "refresh", "destroy"] as const) await this.operation(phase);
  }

  checkSecrets(apiKey: string): void {
    const forms = secretForms(apiKey);
    const context: CheckContext = { cycle: this.cycle, phase: "destroy", attempt: 0, failed: false };
    if (this.counters.cliOutput.some((text) => leaksIn(text, forms))) {
      this.record(context, [{ problem: "secret-leak", kind: "stack", key: "leak|output", detail: "a secret (the API key or a password) appears in the CLI output or an error message" }]);
    }
    for (const file of filesUnder(this.test.workDir)) {
      if (leaksIn(readFileSync(file, "latin1"), forms)) {
        this.record(context, [{ problem: "secret-leak", kind: "stack", key: `leak|${file}`, detail: `a secret (the API key or a password) appears in ${path.relative(this.test.workDir, file)}` }]);
      }
    }
  }
}

/** A small seeded generator, so a run's interruptions can be replayed (their timing aside). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function firstErrorLine(message: string): string {
  const lines = message.split("\n").map((l) => l.trim());
  const error = lines.find((l) => /^(error:|\* )/i.test(l) && !/update failed|preview failed|destroy failed|refresh failed|error: \d+ errors? occurred/i.test(l));
  return (error ?? lines.find((l) => l !== "") ?? "").slice(0, 300);
}

export function describeDiscrepancy(d: Discrepancy): string {
  return `cycle ${d.cycle} ${d.phase}#${d.attempt} ${d.problem} ${d.kind}: ${d.detail}`;
}

async function requestLog(service: LocalService): Promise<Array<{ status: number }>> {
  return (await service.requests()) as Array<{ status: number }>;
}

async function injected(service: LocalService): Promise<Record<FaultKind, number>> {
  const response = await fetch(`${service.url}/_emulator/faults`);
  return ((await response.json()) as { injected: Record<FaultKind, number> }).injected;
}

/**
 * Starts a local service and a stack, runs one fault-free cycle to measure the request count of
 * a clean cycle (checked like the others), then `cycles` cycles with faults at `faultRate`.
 */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const settings = {
    surface: options.surface ?? "dynamic",
    cycles: options.cycles,
    faultRate: options.faultRate,
    kinds: options.kinds ?? FAULT_KINDS,
    interruptRate: options.interruptRate ?? options.faultRate,
    interruptions: options.interruptions ?? INTERRUPTIONS,
    attempts: options.attempts ?? 4,
    speed: options.speed ?? 100,
    parallel: options.parallel ?? 10,
    log: options.log ?? (() => {}),
  };
  const seed = options.seed ?? Math.floor(Math.random() * 1_000_000);
  const service = await startLocalService({
    speed: settings.speed,
    account: { packages: [SHORT_PACKAGE], clusters: [RUN_CLUSTER], connections: CONNECTIONS },
  });
  const keys = Array.from({ length: KEYS }, (_, i) => freshEd25519Key(`soak-${i}`));
  let soak: Soak | undefined;
  const test = await createTestStack(`soak-${settings.surface}`, soakProgram(settings.surface, keys, () => soak?.currentCycle() ?? 0), service, {}, { plugin: settings.surface === "plugin" });
  // Short, so an outage outlasts it and waits end with their objects kept.
  await test.stack.setConfig("etl:retryBudgetSeconds", { value: String(RETRY_BUDGET_SECONDS) });
  try {
    const baseline = baselineOf((await service.state()).accounts[0]);
    soak = new Soak(service, test, baseline, settings);
    const started = Date.now();
    await soak.runCycle(0, 0, 0);
    const baselineRequestsPerCycle = (await requestLog(service)).length;
    settings.log(`baseline cycle: ${baselineRequestsPerCycle} API requests, ${((Date.now() - started) / 1000).toFixed(1)} s`);

    let apiRequests = 0;
    let status429 = 0;
    const cycleSeconds: number[] = [];
    for (let cycle = 1; cycle <= settings.cycles; cycle++) {
      await service.resetRequests();
      const cycleStart = Date.now();
      await soak.runCycle(cycle, settings.faultRate, seed + cycle);
      cycleSeconds.push((Date.now() - cycleStart) / 1000);
      const log = await requestLog(service);
      apiRequests += log.length;
      status429 += log.filter((r) => r.status === 429).length;
      const { discrepancies, failedAttempts } = soak.results;
      settings.log(
        `cycle ${cycle}/${settings.cycles}: ${cycleSeconds.at(-1)!.toFixed(1)} s, ${log.length} requests, ${failedAttempts} failed attempts so far, ${discrepancies.length} discrepancies so far`,
      );
    }
    await soak.faults(0, 0);
    soak.checkSecrets(service.apiKey);
    const resourceOperations = settings.cycles * RESOURCES * 3;
    const results = soak.results;
    return {
      cycles: settings.cycles,
      faultRate: settings.faultRate,
      seed,
      operations: results.operations,
      failedAttempts: results.failedAttempts,
      resourceOperations,
      faultsInjected: soak.injected,
      interrupted: soak.interrupted,
      status429,
      apiRequests,
      baselineRequestsPerCycle,
      extraCallsPer100Operations: resourceOperations === 0 ? 0 : ((apiRequests - baselineRequestsPerCycle * settings.cycles) / resourceOperations) * 100,
      discrepancies: results.discrepancies,
      failures: results.failures,
      cycleSeconds,
    };
  } finally {
    await cleanUp(service, test);
  }
}

/** Whatever a failed run left: destroyed with faults off, so the service can close cleanly. */
async function cleanUp(service: LocalService, test: TestStack): Promise<void> {
  await fetch(`${service.url}/_emulator/faults`, { method: "DELETE" }).catch(() => undefined);
  await test.stack.destroy().catch(() => undefined);
  test.dispose();
  await service.emulator.close();
}

export function formatReport(report: SoakReport): string {
  const cycles = report.cycleSeconds;
  const mean = cycles.length === 0 ? 0 : cycles.reduce((a, b) => a + b, 0) / cycles.length;
  const rows: Array<[string, string]> = [
    ["cycles", String(report.cycles)],
    ["fault rate", report.faultRate === 0 ? "0 (no faults)" : `${report.faultRate} (seeds ${report.seed + 1}..${report.seed + report.cycles})`],
    ["engine operations (attempts)", `${report.operations} incl. the baseline cycle, ${report.failedAttempts} failed`],
    ["resource operations", String(report.resourceOperations)],
    ["faults injected", FAULT_KINDS.map((k) => `${k}: ${report.faultsInjected[k]}`).join(", ")],
    ["operations interrupted", INTERRUPTIONS.map((k) => `${k}: ${report.interrupted[k]}`).join(", ")],
    ["429 answers seen", String(report.status429)],
    ["API requests", `${report.apiRequests} (fault-free cycle: ${report.baselineRequestsPerCycle}, x${report.cycles} = ${report.baselineRequestsPerCycle * report.cycles})`],
    ["extra calls per 100 resource operations", report.extraCallsPer100Operations.toFixed(1)],
    ["seconds per cycle", cycles.length === 0 ? "-" : `mean ${mean.toFixed(1)}, max ${Math.max(...cycles).toFixed(1)}`],
    ["discrepancies", String(report.discrepancies.length)],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`);
  for (const d of report.discrepancies) lines.push(`  - ${describeDiscrepancy(d)}`);
  if (report.failures.length > 0) {
    lines.push("failed attempts:");
    for (const f of report.failures) lines.push(`  - ${f}`);
  }
  return lines.join("\n");
}
