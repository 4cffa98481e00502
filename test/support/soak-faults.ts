/**
 * What the soak does to its stack's operations: faults the emulator injects into single
 * requests, and interruptions of a whole operation, drawn from a seeded generator so a run can
 * be replayed.
 */
import type { Emulator } from "./service";

export const FAULT_KINDS = ["500", "503", "429", "latency", "reset_before", "reset_after"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * What happens to a whole operation rather than to one request: the service goes away for
 * longer than the retry budget (and comes back), or the deployment is cancelled (SIGINT to the
 * CLI, as Ctrl-C or a CI runner sends it). Either lands at a random moment of the operation, but
 * each kind cuts one of the first faulty cycle's first attempts for sure, so a run of one cycle
 * meets every kind.
 */
export const INTERRUPTIONS = ["outage", "cancel"] as const;
export type Interruption = (typeof INTERRUPTIONS)[number];

/** An interruption planned for one attempt: what, and how long after the operation starts. */
export interface Planned {
  kind: Interruption;
  afterMs: number;
}

/** The soak stack's retry budget, and an outage that outlasts it. */
export const RETRY_BUDGET_SECONDS = 3;
export const OUTAGE_MS = 5_000;
/** An interruption lands this long after the operation starts, at random. */
const INTERRUPT_WITHIN_MS = { min: 300, max: 2_500 } as const;

export interface InterruptionDraw {
  kinds: readonly Interruption[];
  /** Probability, 0 to 1, that an attempt is interrupted. */
  rate: number;
  /** The cycle under way, 0 for the fault-free one. */
  cycle: number;
  faulty: boolean;
  random: () => number;
}

/**
 * Whether and how the next attempt is interrupted; only in faulty cycles. The n-th attempt of
 * the first faulty cycle (its up's, then the refresh's and the destroy's, counted together) is
 * cut by the n-th kind of interruption at the earliest moment, so every kind lands in a run
 * however the draws fall, even when an attempt outlives its interruption; the other attempts
 * draw theirs.
 */
export function planInterruption(draw: InterruptionDraw, attemptOfCycle: number): Planned | undefined {
  const { kinds, rate, cycle, random } = draw;
  const { min, max } = INTERRUPT_WITHIN_MS;
  if (!draw.faulty || kinds.length === 0 || rate === 0) return undefined;
  const forced = cycle === 1 ? kinds[attemptOfCycle - 1] : undefined;
  if (forced !== undefined) return { kind: forced, afterMs: min };
  if (random() >= rate) return undefined;
  return { kind: kinds[Math.floor(random() * kinds.length)]!, afterMs: min + Math.floor(random() * (max - min)) };
}

/** Faults injected since the last setting: the service's counts restart with every new one. */
export async function injectedFaults(service: Emulator): Promise<Record<FaultKind, number>> {
  const response = await fetch(`${service.url}/_emulator/faults`);
  return ((await response.json()) as { injected: Record<FaultKind, number> }).injected;
}

export async function setFaults(service: Emulator, setting: { rate: number; kinds: readonly FaultKind[]; seed: number }): Promise<void> {
  const response = await fetch(`${service.url}/_emulator/faults`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(setting),
  });
  if (!response.ok) throw new Error(`setting faults failed: ${response.status} ${await response.text()}`);
}
