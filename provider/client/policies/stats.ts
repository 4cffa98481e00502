/**
 * Counters of what the client spent, so a test or a long run can say how many extra calls went
 * to retries and how long pacing and backoff held requests back. The client itself logs nothing.
 */
import { RateLimitError } from "../errors";
import type { ApiRequest, ApiResponse, RequestFn } from "../http";

export interface ClientStats {
  /** Exchanges started on the wire, retries included. */
  requests: number;
  retries: number;
  /** Retries by what prompted them: the status ("429", "500", "503") or "connection" / "timeout". */
  retriesByReason: Record<string, number>;
  /** 429 answers received, retried or not. */
  rateLimited: number;
  /** Writes that failed in a way that may or may not have been applied. */
  outcomeUnknown: number;
  /** Requests given up on after retrying (budget or attempts spent, or a wait beyond the budget). */
  gaveUp: number;
  pacedWaits: number;
  pacedMs: number;
  backoffMs: number;
}

export function createClientStats(): ClientStats {
  return {
    requests: 0,
    retries: 0,
    retriesByReason: {},
    rateLimited: 0,
    outcomeUnknown: 0,
    gaveUp: 0,
    pacedWaits: 0,
    pacedMs: 0,
    backoffMs: 0,
  };
}

/** A copy, so a caller comparing before and after is not looking at one live object twice. */
export function snapshotOf(stats: ClientStats): ClientStats {
  return { ...stats, retriesByReason: { ...stats.retriesByReason } };
}

export function resetStats(stats: ClientStats): void {
  Object.assign(stats, createClientStats());
}

/** Innermost: counts what actually goes to the service. */
export function withCounting(inner: RequestFn, stats: ClientStats): RequestFn {
  return async <T>(req: ApiRequest): Promise<ApiResponse<T>> => {
    stats.requests += 1;
    try {
      return await inner<T>(req);
    } catch (error) {
      if (error instanceof RateLimitError) stats.rateLimited += 1;
      throw error;
    }
  };
}
