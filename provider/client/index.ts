/**
 * The client every API call goes through: the bare HTTP function wrapped in the policies, in
 * this order from the outside in:
 *
 *   credentials diagnosis → cancellation → retries → pacing → timeout → counting → HTTP
 *
 * The diagnosis outermost: it explains a 401 that the policies inside have settled, with one
 * request of its own through all of them.
 * Cancellation next, so a cancelled deployment stops starting requests and turns what it
 * abandoned into one clear error; retries inside it, so each resend is paced and gets a deadline of
 * its own like any request; pacing outside the timeout, so time spent waiting for a slot does
 * not eat the deadline; counting innermost, so it counts what actually reaches the service.
 */
import type { ClientSettings, ConnectionSettings } from "../config";
import { createHttpRequest, type HttpOptions, type RequestFn } from "./http";
import { realClock, type Sleep } from "./policies/clock";
import { withCredentialsDiagnosis } from "./policies/credentials";
import { withCancellation, type Cancellation } from "./policies/cancel";
import { createPacingState, withPacing, type PacingState } from "./policies/pacing";
import { createReachability, RETRY_DEFAULTS, withRetries, type Reachability } from "./policies/retry";
import { createClientStats, withCounting, type ClientStats } from "./policies/stats";
import { withTimeout } from "./policies/timeout";

export type { ClientStats } from "./policies/stats";
export type { PacingState } from "./policies/pacing";
export type { Reachability } from "./policies/retry";
export { createReachability } from "./policies/retry";

export interface ClientOptions {
  /** Shared across clients of one process, since they draw on one allowance. */
  pacing?: PacingState;
  /** Shared across clients of one process, since they reach one service. */
  reachability?: Reachability;
  stats?: ClientStats;
  sleep?: Sleep;
  now?: () => number;
  random?: () => number;
  /** Backoff shape; the defaults suit the service. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  rateLimitDelayMs?: number;
  dispatcher?: HttpOptions["dispatcher"];
  /** When given, a cancelled deployment stops waits and abandons what is safe to abandon. */
  cancellation?: Cancellation;
}

export interface Client {
  request: RequestFn;
  stats: ClientStats;
  pacing: PacingState;
}

/** Leaves the deadline to the timeout policy, whose error says what happened. */
const TRANSPORT_TIMEOUT_MARGIN_MS = 1_000;

export function createClient(config: ConnectionSettings & ClientSettings, options: ClientOptions = {}): Client {
  const stats = options.stats ?? createClientStats();
  const pacing = options.pacing ?? createPacingState();
  const clock = { sleep: options.sleep ?? realClock.sleep, now: options.now ?? realClock.now };
  const timeoutMs = config.requestTimeoutSeconds * 1000;

  const http = createHttpRequest(config, { timeoutMs: timeoutMs + TRANSPORT_TIMEOUT_MARGIN_MS, dispatcher: options.dispatcher });
  const timed = withTimeout(withCounting(http, stats), timeoutMs);
  const signal = options.cancellation?.signal;
  const paced = withPacing(timed, { ...clock, state: pacing, stats, signal });
  const retried = withRetries(paced, {
    ...clock,
    maxRetries: config.maxRetries,
    budgetMs: config.retryBudgetSeconds * 1000,
    baseDelayMs: options.baseDelayMs ?? RETRY_DEFAULTS.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? RETRY_DEFAULTS.maxDelayMs,
    rateLimitDelayMs: options.rateLimitDelayMs ?? RETRY_DEFAULTS.rateLimitDelayMs,
    random: options.random ?? Math.random,
    stats,
    signal,
    reachability: options.reachability ?? createReachability(),
  });
  const cancellable = options.cancellation === undefined ? retried : withCancellation(retried, options.cancellation);
  return { request: withCredentialsDiagnosis(cancellable, config.accountId), stats, pacing };
}
