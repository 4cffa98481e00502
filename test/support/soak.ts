/**
 * Soak driver: one stack holding every resource kind goes through up, refresh and destroy again
 * and again while the emulator injects faults, and after every attempt of every operation
 * the service's records are compared with the stack's state. What it proves, or disproves, is
 * that faults never make the provider lose track of an object or create one twice.
 *
 * Used by test/engine/soak.test.ts (a short run in CI) and bench/soak.cts (a long one). The stack
 * is in soak-stack.ts (each kind's part in its entry under test/kinds/), the faults and
 * interruptions in soak-faults.ts, the comparison in soak-ledger.ts, the cycles in soak-run.ts.
 */
import { createTestStack, type TestStack } from "./engine";
import { startTestEmulator, type Emulator } from "./service";
import { FAULT_KINDS, INTERRUPTIONS, RETRY_BUDGET_SECONDS, type FaultKind, type Interruption } from "./soak-faults";
import { baselineOf, type Discrepancy } from "./soak-ledger";
import { describeDiscrepancy, Soak } from "./soak-run";
import { SOAK_ACCOUNT } from "./soak-account";
import { freshKeys, soakProgram, STACK_SIZE } from "./soak-stack";
import type { Surface } from "./surfaces";

export { filesUnder } from "./files";
export { freshEd25519Key } from "./keys";
export type { FaultKind, Interruption } from "./soak-faults";
export { addServiceMade, findDiscrepancies, KINDS, type Baseline, type Discrepancy, type Kind, type StateResource } from "./soak-ledger";
export { describeDiscrepancy } from "./soak-run";

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
  /** Lifecycle speed-up of the emulator. */
  speed?: number;
  /**
   * Whether a fault-free cycle runs first to count a clean cycle's requests (default true): the
   * report's extra calls are measured against it. A run that only checks agreement can spare it.
   */
  measureBaseline?: boolean;
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
  /** API requests of one fault-free cycle, measured before the faulty ones; undefined when not measured. */
  baselineRequestsPerCycle: number | undefined;
  /** (apiRequests - baseline x cycles) per 100 resource operations; undefined without a baseline. */
  extraCallsPer100Operations: number | undefined;
  discrepancies: Discrepancy[];
  /** First line of each failed attempt's error, with the phase, for reading the faults' effect. */
  failures: string[];
  cycleSeconds: number[];
}

async function requestLog(service: Emulator): Promise<Array<{ status: number }>> {
  return (await service.requests()) as Array<{ status: number }>;
}

/**
 * Starts an emulator and a stack, runs one fault-free cycle to measure the request count of
 * a clean cycle (checked like the others; unless `measureBaseline` is false), then `cycles`
 * cycles with faults at `faultRate`.
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
  const service = await startTestEmulator({ speed: settings.speed, account: SOAK_ACCOUNT });
  let soak: Soak | undefined;
  const program = soakProgram(settings.surface, { keys: freshKeys(), cycle: () => soak?.currentCycle() ?? 0 });
  const test = await createTestStack(`soak-${settings.surface}`, program, service, {}, { plugin: settings.surface === "plugin" });
  // Short, so an outage outlasts it and waits end with their objects kept.
  await test.stack.setConfig("etl:retryBudgetSeconds", { value: String(RETRY_BUDGET_SECONDS) });
  try {
    const baseline = baselineOf(await service.state());
    soak = new Soak(service, test, baseline, settings);
    const baselineRequestsPerCycle = options.measureBaseline === false ? undefined : await measureBaseline(service, soak, settings.log);

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
    const resourceOperations = settings.cycles * STACK_SIZE * 3;
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
      extraCallsPer100Operations:
        resourceOperations === 0
          ? 0
          : baselineRequestsPerCycle === undefined
            ? undefined
            : ((apiRequests - baselineRequestsPerCycle * settings.cycles) / resourceOperations) * 100,
      discrepancies: results.discrepancies,
      failures: results.failures,
      cycleSeconds,
    };
  } finally {
    await cleanUp(service, test);
  }
}

/** The fault-free cycle 0, checked like the others: the API requests a clean cycle makes. */
async function measureBaseline(service: Emulator, soak: Soak, log: (line: string) => void): Promise<number> {
  const started = Date.now();
  await soak.runCycle(0, 0, 0);
  const requests = (await requestLog(service)).length;
  log(`baseline cycle: ${requests} API requests, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return requests;
}

/** Whatever a failed run left: destroyed with faults off, so the service can close cleanly. */
async function cleanUp(service: Emulator, test: TestStack): Promise<void> {
  await fetch(`${service.url}/_emulator/faults`, { method: "DELETE" }).catch(() => undefined);
  await test.stack.destroy().catch(() => undefined);
  test.dispose();
  await service.emulator.close();
}

function againstBaseline({ baselineRequestsPerCycle: perCycle, cycles }: SoakReport): string {
  return perCycle === undefined ? "(no fault-free cycle measured)" : `(fault-free cycle: ${perCycle}, x${cycles} = ${perCycle * cycles})`;
}

export function formatReport(report: SoakReport): string {
  const cycles = report.cycleSeconds;
  const mean = cycles.length === 0 ? 0 : cycles.reduce((a, b) => a + b, 0) / cycles.length;
  const rows: Array<[string, string]> = [
    ["cycles", String(report.cycles)],
    ["fault rate", report.faultRate === 0 ? "0 (no faults)" : `${report.faultRate} (seeds ${report.seed + 1}..${report.seed + report.cycles})`],
    [
      "engine operations (attempts)",
      `${report.operations}${report.baselineRequestsPerCycle === undefined ? "" : " incl. the baseline cycle"}, ${report.failedAttempts} failed`,
    ],
    ["resource operations", String(report.resourceOperations)],
    ["faults injected", FAULT_KINDS.map((k) => `${k}: ${report.faultsInjected[k]}`).join(", ")],
    ["operations interrupted", INTERRUPTIONS.map((k) => `${k}: ${report.interrupted[k]}`).join(", ")],
    ["429 answers seen", String(report.status429)],
    ["API requests", `${report.apiRequests} ${againstBaseline(report)}`],
    ["extra calls per 100 resource operations", report.extraCallsPer100Operations?.toFixed(1) ?? "- (no fault-free cycle measured)"],
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
