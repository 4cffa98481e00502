/**
 * The client every API call goes through: the bare HTTP function wrapped in the policies, in
 * this order from the outside in:
 *
 *   retries → pacing → timeout → counting → HTTP
 *
 * Retries outermost, so each resend is paced and gets a deadline of its own like any request;
 * pacing outside the timeout, so time spent waiting for a slot does not eat the deadline;
 * counting innermost, so it counts what actually reaches the service.
 */
import type { ClientSettings, ConnectionSettings } from "../config";
import { createHttpRequest, type HttpOptions, type RequestFn } from "./http";
import { realClock, type Sleep } from "./policies/clock";
import { createPacingState, withPacing, type PacingState } from "./policies/pacing";
import { RETRY_DEFAULTS, withRetries } from "./policies/retry";
import { createClientStats, withCounting, type ClientStats } from "./policies/stats";
import { withTimeout } from "./policies/timeout";

export type { ClientStats } from "./policies/stats";
export type { PacingState } from "./policies/pacing";

export interface ClientOptions {
  /** Shared across clients of one process, since they draw on one allowance. */
  pacing?: PacingState;
  stats?: ClientStats;
  sleep?: Sleep;
  now?: () => number;
  random?: () => number;
  /** Backoff shape; the defaults suit the service. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  rateLimitDelayMs?: number;
  dispatcher?: HttpOptions["dispatcher"];
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
  const paced = withPacing(timed, { ...clock, state: pacing, stats });
  const request = withRetries(paced, {
    ...clock,
    maxRetries: config.maxRetries,
    budgetMs: config.retryBudgetSeconds * 1000,
    baseDelayMs: options.baseDelayMs ?? RETRY_DEFAULTS.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? RETRY_DEFAULTS.maxDelayMs,
    rateLimitDelayMs: options.rateLimitDelayMs ?? RETRY_DEFAULTS.rateLimitDelayMs,
    random: options.random ?? Math.random,
    stats,
  });
  return { request, stats, pacing };
}
