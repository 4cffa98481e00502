/**
 * Waiting for the service: cluster creation and termination, job runs. Polls start fast and
 * back off with a cap; when the object reports how far it is (a job's progress), the next poll
 * is aimed just after its expected end instead, so a long run costs few credits and `up`
 * returns soon after the object is done. Dynamic providers ignore `customTimeouts`, so every
 * wait has its own deadline. A read the service cannot answer (unreachable, dropped, 5xx) is
 * tried again until the outage has lasted a whole retry budget, however few retries one
 * request was allowed: a wait rides out an outage as long as any request would.
 */
import { cancellableSleep } from "../../client/policies/cancel";
import { realClock } from "../../client/policies/clock";
import { isServiceUnavailable, UnreachableError } from "../../client/errors";
import type { Reporter } from "../../progress";

export interface PollOptions<T> {
  /** Reads the object once. */
  read(): Promise<T>;
  /** True when waiting is over (ready, finished, gone). */
  isDone(current: T): boolean;
  /** Milliseconds until the object is expected to be done, when it can tell. */
  expectedRemainingMs?(current: T, elapsedMs: number): number | undefined;
  /** Called after each read that did not end the wait, e.g. to print progress. */
  onProgress?(current: T): void;
  timeoutMs: number;
  firstDelayMs?: number;
  maxDelayMs?: number;
  sleep?(ms: number): Promise<void>;
  now?(): number;
  /** Aborting it ends the wait at once with a WaitInterruptedError. */
  signal?: AbortSignal;
  /** How long reads may keep failing for want of the service: the context's retry budget. */
  outageToleranceMs: number;
}

export interface PollResult<T> {
  current: T;
  /** Reads made, the first one included. */
  polls: number;
}

export class WaitTimeoutError<T> extends Error {
  constructor(
    message: string,
    readonly last: T,
    readonly polls: number,
  ) {
    super(message);
    this.name = "WaitTimeoutError";
  }
}

/**
 * The wait ended before the object was done: a read failed (after the client's own retries) or
 * the deployment was cancelled. `last` is the latest reading, so the object can be kept.
 */
export class WaitInterruptedError<T> extends Error {
  constructor(
    readonly last: T | undefined,
    readonly polls: number,
    readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = "WaitInterruptedError";
  }
}

export const BACKOFF = { firstDelayMs: 1_000, maxDelayMs: 30_000, factor: 1.6 } as const;
/** Aim a little past the expected end: early polls cost credits, late ones cost waiting. */
const AIM_PAST_END = { fraction: 0.01, minimumMs: 250 } as const;

export function nextDelayMs(previousDelayMs: number, expectedRemainingMs: number | undefined, maxDelayMs: number, elapsedMs: number): number {
  if (expectedRemainingMs !== undefined && Number.isFinite(expectedRemainingMs) && expectedRemainingMs >= 0) {
    const margin = Math.max(AIM_PAST_END.minimumMs, elapsedMs * AIM_PAST_END.fraction);
    return Math.min(maxDelayMs * 4, expectedRemainingMs + margin);
  }
  return Math.min(maxDelayMs, previousDelayMs * BACKOFF.factor);
}

export async function pollUntil<T>(options: PollOptions<T>): Promise<PollResult<T>> {
  const sleep = cancellableSleep(options.sleep ?? realClock.sleep, options.signal);
  const now = options.now ?? Date.now;
  const maxDelayMs = options.maxDelayMs ?? BACKOFF.maxDelayMs;
  const toleranceMs = options.outageToleranceMs;
  const started = now();
  const deadline = started + options.timeoutMs;
  let delay = options.firstDelayMs ?? BACKOFF.firstDelayMs;
  let polls = 1;
  let last: T | undefined;
  const interrupted = (cause: unknown) => new WaitInterruptedError(last, polls, cause);
  const read = async (): Promise<T> => {
    let failingSince: number | undefined;
    for (let outageDelay: number = BACKOFF.firstDelayMs; ; outageDelay = Math.min(maxDelayMs, outageDelay * BACKOFF.factor)) {
      if (options.signal?.aborted) throw interrupted(options.signal.reason);
      const readAt = now();
      try {
        return (last = await options.read());
      } catch (error) {
        if (!isServiceUnavailable(error)) throw interrupted(error);
        failingSince = Math.min(failingSince ?? readAt, readAt - unreachableForMs(error));
        const leftMs = toleranceMs - (now() - failingSince);
        if (leftMs <= 0) throw interrupted(error);
        await sleep(Math.min(outageDelay, leftMs));
        polls++;
      }
    }
  };
  let current = await read();
  while (!options.isDone(current)) {
    options.onProgress?.(current);
    const remaining = deadline - now();
    if (remaining <= 0) {
      throw new WaitTimeoutError(`gave up waiting after ${Math.round(options.timeoutMs / 1000)} s`, current, polls);
    }
    await sleep(Math.min(delay, remaining));
    polls++;
    current = await read();
    const elapsed = now() - started;
    delay = nextDelayMs(delay, options.expectedRemainingMs?.(current, elapsed), maxDelayMs, elapsed);
  }
  return { current, polls };
}

/** How long the service had been unreachable before this read gave up on it (the client rides out some itself). */
function unreachableForMs(error: unknown): number {
  return error instanceof UnreachableError ? error.unreachableForMs : 0;
}

/** A record already in hand (the answer of the call that started the wait) is the first reading; the service is asked from then on. */
export function readingFrom<T>(first: T, read: () => Promise<T>): () => Promise<T> {
  let pending: { record: T } | undefined = { record: first };
  return async () => {
    if (pending === undefined) return read();
    const { record } = pending;
    pending = undefined;
    return record;
  };
}

/** Reports a status each time what `describe` says of a reading changes: the resource's row shows it while `up` waits. */
export function progressLines<T>(report: Reporter, describe: (reading: T) => string | undefined): (reading: T) => void {
  let last: string | undefined;
  return (reading) => {
    const line = describe(reading);
    if (line === undefined || line === last) return;
    last = line;
    report.status(line);
  };
}
