/**
 * Retries with exponential backoff and full jitter, bounded by a number of retries and a total
 * time budget. Only failures the service did not apply, or requests safe to repeat, are sent
 * again: a write that is not idempotent and may have been applied becomes OutcomeUnknownError at
 * once, for the resource to reconcile, and is never resent here.
 *
 * An address that cannot be reached (nothing sent) is tried again for the whole budget, whatever
 * `etl:maxRetries` says (0 aside): an outage costs the service nothing and is often short. Once
 * it has stayed unreachable for a whole budget, the process's other requests stop retrying it:
 * each still tries once, and fails at once while it is still down.
 *
 * Before the service has answered the process once, an address that never worked is more likely
 * wrong than down: a host name that does not exist (ENOTFOUND) fails at once; a refused connection
 * (ECONNREFUSED: the host answered, nothing listens on the port) within 5 s, long enough for a
 * service being restarted on that host, as a load-balanced service in an outage answers 502/503 or
 * not at all rather than refusing; any other unreachable address within 15 s; each naming
 * `etl:apiUrl`. The settings' proof meets this first, so it bounds how long a mistyped address
 * holds up a preview.
 */
import { SETTINGS } from "../../config";
import { ConnectionError, EtlApiError, OutcomeUnknownError, RateLimitError, ServerError, UnreachableError } from "../errors";
import { isIdempotent, type ApiRequest, type ApiResponse, type RequestFn } from "../http";
import type { Clock } from "./clock";
import type { ClientStats } from "./stats";
import { cancellableSleep } from "./cancel";
import { isTimeout } from "./timeout";

export interface RetryOptions extends Clock {
  maxRetries: number;
  budgetMs: number;
  /** First backoff ceiling; each retry doubles it up to `maxDelayMs`. */
  baseDelayMs: number;
  /** No single backoff wait exceeds this. */
  maxDelayMs: number;
  /** Ceiling of the jittered wait after a 429 that names no time. */
  rateLimitDelayMs: number;
  /** In [0, 1), as Math.random. */
  random: () => number;
  stats: ClientStats;
  /** Once aborted, no more retries: the failure seen is final. */
  signal?: AbortSignal;
  /** Shared by the clients of one process: since when the service has been unreachable past a budget. */
  reachability?: Reachability;
}

export interface Reachability {
  /** The service has answered this process once at least: from then on an outage gets the whole budget. */
  answered?: boolean;
  /** When the outage that a request gave up on began; cleared by any answer of the service. */
  downSince?: number;
  /** The latest attempt that found the service unreachable. */
  lastFailureAt?: number;
}

export function createReachability(): Reachability {
  return {};
}

export const RETRY_DEFAULTS = { baseDelayMs: 1_000, maxDelayMs: 20_000, rateLimitDelayMs: 5_000 } as const;

/** How long an address the process has never reached is tried, at most. */
export const FIRST_CONTACT_BUDGET_MS = 15_000;
/** How long a refused connection to an address the process has never reached is tried, at most. */
export const FIRST_CONTACT_REFUSED_BUDGET_MS = 5_000;

export type Decision = { retry: true; waitMs: number; reason: string } | { retry: false; error: unknown };

export interface Attempt {
  idempotent: boolean;
  /** Retries already made. */
  retries: number;
  startedAt: number;
}

export function withRetries(inner: RequestFn, options: RetryOptions): RequestFn {
  return async <T>(req: ApiRequest): Promise<ApiResponse<T>> => {
    const attempt: Attempt = { idempotent: isIdempotent(req), retries: 0, startedAt: options.now() };
    const sleep = cancellableSleep(options.sleep, options.signal);
    for (;;) {
      try {
        const response = await inner<T>(req);
        noteAnswered(options.reachability);
        return response;
      } catch (error) {
        if (error instanceof EtlApiError && error.status > 0) noteAnswered(options.reachability);
        const decision = decide(error, attempt, options);
        if (!decision.retry) throw recorded(decision.error, error, options.stats);
        if (options.signal?.aborted) throw error;
        count(options.stats, decision);
        await sleep(decision.waitMs);
        if (options.signal?.aborted) throw error;
        attempt.retries += 1;
      }
    }
  };
}

/** What to do after a failed attempt: wait and resend, or throw (possibly a clearer error). */
export function decide(error: unknown, attempt: Attempt, options: RetryOptions): Decision {
  const reason = error instanceof EtlApiError ? retryReason(error) : undefined;
  if (reason === undefined) return { retry: false, error };
  const failure = error as EtlApiError;
  if (failure instanceof UnreachableError) return decideUnreached(failure, attempt, options);
  if (!attempt.idempotent && !safeToResend(failure)) return { retry: false, error: new OutcomeUnknownError(failure) };

  const now = options.now();
  const remainingMs = options.budgetMs - (now - attempt.startedAt);
  const retryAfterMs = retryAfterOf(failure, now);
  if (retryAfterMs !== undefined && retryAfterMs > remainingMs) {
    return { retry: false, error: failure instanceof RateLimitError ? allowanceUsedUp(failure, now, retryAfterMs, options.budgetMs) : failure };
  }
  if (attempt.retries >= options.maxRetries) return { retry: false, error: givenUp(failure, attempt, now) };
  const waitMs = retryAfterMs ?? backoffMs(failure, attempt.retries, options);
  if (waitMs > remainingMs) return { retry: false, error: givenUp(failure, attempt, now) };
  return { retry: true, waitMs, reason };
}

/**
 * Nothing was sent: try again until the budget is spent, the last try at its end, unless the
 * service has already been unreachable for a whole budget (then once is enough).
 */
function decideUnreached(failure: UnreachableError, attempt: Attempt, options: RetryOptions): Decision {
  if (options.maxRetries === 0) return { retry: false, error: failure };
  const firstContact = options.reachability !== undefined && options.reachability.answered !== true;
  if (firstContact && failure.address.detail === "ENOTFOUND") return { retry: false, error: failure };
  const budgetMs = firstContact ? Math.min(options.budgetMs, firstContactBudgetMs(failure)) : options.budgetMs;
  const now = options.now();
  const since = Math.min(attempt.startedAt, knownDownSince(options.reachability, now, budgetMs) ?? attempt.startedAt);
  const remainingMs = budgetMs - (now - since);
  if (options.reachability !== undefined) options.reachability.lastFailureAt = now;
  if (remainingMs > 0) {
    return { retry: true, waitMs: Math.min(remainingMs, backoffMs(failure, attempt.retries, options)), reason: "connection" };
  }
  if (options.reachability !== undefined) options.reachability.downSince = since;
  return { retry: false, error: failure.after(now - since) };
}

function firstContactBudgetMs(failure: UnreachableError): number {
  return failure.address.detail === "ECONNREFUSED" ? FIRST_CONTACT_REFUSED_BUDGET_MS : FIRST_CONTACT_BUDGET_MS;
}

/** The outage a request gave up on, while failures keep showing it goes on (one at least every budget). */
function knownDownSince(state: Reachability | undefined, now: number, budgetMs: number): number | undefined {
  if (state?.downSince === undefined || state.lastFailureAt === undefined) return undefined;
  return now - state.lastFailureAt <= budgetMs ? state.downSince : undefined;
}

/** Any answer of the service, even an error, shows it is reachable again. */
function noteAnswered(state: Reachability | undefined): void {
  if (state === undefined) return;
  state.answered = true;
  state.downSince = state.lastFailureAt = undefined;
}

/** Undefined for failures that retrying cannot fix (4xx other than 429, programming errors). */
function retryReason(error: EtlApiError): string | undefined {
  if (error instanceof RateLimitError || error instanceof ServerError) return String(error.status);
  if (error instanceof ConnectionError) return isTimeout(error) ? "timeout" : "connection";
  return undefined;
}

/** A 429 is refused before it is applied. */
function safeToResend(error: EtlApiError): boolean {
  return error instanceof RateLimitError;
}

/** Full jitter (a uniform wait up to the exponential ceiling), so many clients do not retry in step. */
export function backoffMs(error: EtlApiError, retries: number, options: RetryOptions): number {
  if (error instanceof RateLimitError) return options.rateLimitDelayMs / 2 + (options.random() * options.rateLimitDelayMs) / 2;
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retries);
  return options.random() * ceiling;
}

/** `Retry-After` as delay-seconds or an HTTP date (RFC 9110 10.2.3); undefined when absent or unreadable. */
export function retryAfterOf(error: EtlApiError, now: number): number | undefined {
  const value = error.responseHeaders?.["retry-after"]?.trim();
  if (value === undefined || value === "") return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function allowanceUsedUp(error: RateLimitError, now: number, retryAfterMs: number, budgetMs: number): RateLimitError {
  return withMessage(
    error,
    `the hourly API allowance is used up; retry after ${isoSeconds(now + retryAfterMs)} (in ${Math.ceil(retryAfterMs / 1000)} s, ` +
      `longer than ${SETTINGS.retryBudgetSeconds.key} allows waiting: ${budgetMs / 1000} s). The service said: ${error.serviceMessage}`,
  );
}

function givenUp(error: EtlApiError, attempt: Attempt, now: number): EtlApiError {
  if (!(error instanceof RateLimitError)) return error;
  const spent = Math.round((now - attempt.startedAt) / 1000);
  const usedUp = error.responseHeaders?.["x-ratelimit-remaining"] === "0";
  const hint = usedUp ? "the hourly API allowance is used up (X-RateLimit-Remaining is 0); retry once it renews, within the hour" : "retry later";
  return withMessage(error, `still rate limited after ${attempt.retries} retries over ${spent} s: ${hint}. The service said: ${error.serviceMessage}`);
}

function withMessage(error: RateLimitError, serviceMessage: string): RateLimitError {
  return new RateLimitError({
    status: error.status,
    request: error.request,
    serviceMessage,
    responseBody: error.responseBody,
    responseHeaders: error.responseHeaders,
  });
}

function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function count(stats: ClientStats, decision: { waitMs: number; reason: string }): void {
  stats.retries += 1;
  stats.retriesByReason[decision.reason] = (stats.retriesByReason[decision.reason] ?? 0) + 1;
  stats.backoffMs += decision.waitMs;
}

function recorded(thrown: unknown, original: unknown, stats: ClientStats): unknown {
  if (thrown instanceof OutcomeUnknownError) stats.outcomeUnknown += 1;
  else if (original instanceof EtlApiError && retryReason(original) !== undefined) stats.gaveUp += 1;
  return thrown;
}
