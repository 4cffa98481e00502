/**
 * One soak run on a stack: cycles of up, refresh and destroy, each operation retried until it
 * succeeds, the service's records compared with the stack's state after every attempt, and the
 * stack's files and output searched for secrets at the end.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { TestStack } from "./engine";
import { filesUnder } from "./files";
import { mulberry32 } from "./random";
import type { Emulator } from "./service";
import {
  FAULT_KINDS,
  injectedFaults,
  INTERRUPTIONS,
  OUTAGE_MS,
  planInterruption,
  setFaults,
  type FaultKind,
  type Interruption,
  type Planned,
} from "./soak-faults";
import { addServiceMade, findDiscrepancies, stateResources, type Baseline, type CheckContext, type Discrepancy, type Finding, type Phase } from "./soak-ledger";
import { CONNECTION_PASSWORD } from "./soak-account";

export interface SoakSettings {
  kinds: readonly FaultKind[];
  interruptRate: number;
  interruptions: readonly Interruption[];
  /** Attempts no interruption reached that may fail before the cycle gives up on the operation. */
  attempts: number;
  parallel: number;
  log: (line: string) => void;
}

interface Counters {
  operations: number;
  failedAttempts: number;
  failures: string[];
  discrepancies: Discrepancy[];
  seen: Set<string>;
  cliOutput: string[];
}

export function describeDiscrepancy(d: Discrepancy): string {
  return `cycle ${d.cycle} ${d.phase}#${d.attempt} ${d.problem} ${d.kind}: ${d.detail}`;
}

function firstErrorLine(message: string): string {
  const lines = message.split("\n").map((l) => l.trim());
  const error = lines.find(
    (l) => /^(error:|\* )/i.test(l) && !/update failed|preview failed|destroy failed|refresh failed|error: \d+ errors? occurred/i.test(l),
  );
  return (error ?? lines.find((l) => l !== "") ?? "").slice(0, 300);
}

/** The key itself, the Basic credentials made from it, and the connections' password, wherever text of the run lands. */
function secretForms(apiKey: string): string[] {
  return [apiKey, Buffer.from(`${apiKey}:`).toString("base64"), CONNECTION_PASSWORD];
}

function leaksIn(text: string, forms: string[]): boolean {
  return forms.some((form) => text.includes(form));
}

export class Soak {
  private readonly counters: Counters = { operations: 0, failedAttempts: 0, failures: [], discrepancies: [], seen: new Set(), cliOutput: [] };
  private cycle = 0;
  /** Attempts of the cycle under way so far, every operation's together. */
  private attemptsInCycle = 0;
  private random: () => number = Math.random;
  private rate = 0;
  readonly interrupted = Object.fromEntries(INTERRUPTIONS.map((k) => [k, 0])) as Record<Interruption, number>;
  /** Faults injected so far; the service's counts restart with every new setting, so they are added up here. */
  readonly injected = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;

  constructor(
    private readonly service: Emulator,
    private readonly test: TestStack,
    private readonly baseline: Baseline,
    private readonly options: SoakSettings,
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
    addServiceMade(this.baseline, serviceState);
    this.record(context, findDiscrepancies(serviceState, state, this.baseline, context));
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
      // behind: the way out docs/operations.md gives a user is `pulumi cancel`.
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

  private nextInterruption(): Planned | undefined {
    const draw = { kinds: this.options.interruptions, rate: this.options.interruptRate, cycle: this.cycle, faulty: this.rate !== 0, random: this.random };
    this.attemptsInCycle++;
    return planInterruption(draw, this.attemptsInCycle);
  }

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
      const failed = await this.run(phase, this.nextInterruption()).then(
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
      {
        problem: "gave-up",
        kind: "stack",
        key: `gave-up|${this.cycle}|${phase}`,
        detail: `${phase} failed ${attempt} times, ${uninterruptedFailures} of them to faults alone`,
      },
    ]);
    await this.faults(0, 0);
    this.counters.operations++;
    const failed = await this.run(phase).then(
      () => false,
      () => true,
    );
    await this.check({ cycle: this.cycle, phase, attempt: attempt + 1, failed });
  }

  private interruptions(): number {
    return INTERRUPTIONS.reduce((sum, kind) => sum + this.interrupted[kind], 0);
  }

  async faults(rate: number, seed: number): Promise<void> {
    for (const [kind, count] of Object.entries(await injectedFaults(this.service))) this.injected[kind as FaultKind] += count;
    await setFaults(this.service, { rate, kinds: this.options.kinds, seed });
  }

  async runCycle(cycle: number, rate: number, seed: number): Promise<void> {
    this.cycle = cycle;
    this.attemptsInCycle = 0;
    this.rate = rate;
    this.random = mulberry32(seed);
    await this.faults(rate, seed);
    for (const phase of ["up", "refresh", "destroy"] as const) await this.operation(phase);
  }

  checkSecrets(apiKey: string): void {
    const forms = secretForms(apiKey);
    const context: CheckContext = { cycle: this.cycle, phase: "destroy", attempt: 0, failed: false };
    if (this.counters.cliOutput.some((text) => leaksIn(text, forms))) {
      this.record(context, [
        {
          problem: "secret-leak",
          kind: "stack",
          key: "leak|output",
          detail: "a secret (the API key or a password) appears in the CLI output or an error message",
        },
      ]);
    }
    for (const file of filesUnder(this.test.workDir)) {
      if (leaksIn(readFileSync(file, "latin1"), forms)) {
        this.record(context, [
          {
            problem: "secret-leak",
            kind: "stack",
            key: `leak|${file}`,
            detail: `a secret (the API key or a password) appears in ${path.relative(this.test.workDir, file)}`,
          },
        ]);
      }
    }
  }
}
