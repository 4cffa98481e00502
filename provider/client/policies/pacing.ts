/**
 * Slowing down before the hourly allowance runs out, rather than meeting 429s: the service
 * reports `X-RateLimit-Limit` and `X-RateLimit-Remaining` on every authenticated answer, and
 * once the remainder falls below a reserve, requests are spaced at the allowance's sustainable
 * rate (one per 3600 s / limit), or faster when the service says the allowance renews sooner
 * (`X-RateLimit-Reset`, seconds: undocumented, so only used when sent). One state per process, shared by every request, since they all
 * draw on the same allowance. Requests sent but not yet answered count as spent: the remainder
 * the last answer gave does not know of them, and however many run at once (the engine's
 * parallelism), none may find the allowance gone. Without the headers nothing is paced.
 */
import { EtlApiError } from "../errors";
import type { ApiRequest, ApiResponse, RequestFn } from "../http";
import { cancellableSleep } from "./cancel";
import type { Clock } from "./clock";
import type { ClientStats } from "./stats";

export interface PacingState {
  limit?: number;
  remaining?: number;
  /** When the allowance renews, when the service says (`X-RateLimit-Reset`, seconds from the answer). */
  renewsAt?: number;
  /** When the latest request was let through (or is scheduled to be). */
  lastSlotAt: number;
  /** Requests sent whose answers have not come yet: each has spent a credit the last answer did not count. */
  inFlight: number;
}

export function createPacingState(): PacingState {
  return { lastSlotAt: Number.NEGATIVE_INFINITY, inFlight: 0 };
}

export interface PacingOptions extends Clock {
  state: PacingState;
  stats: ClientStats;
  /** Ends a wait for a slot early; the request then goes on and the cancellation policy decides. */
  signal?: AbortSignal;
}

const HOUR_MS = 3_600_000;
const RESERVE_FRACTION = 0.02;
const RESERVE_MINIMUM = 20;

export function withPacing(inner: RequestFn, options: PacingOptions): RequestFn {
  return async <T>(req: ApiRequest): Promise<ApiResponse<T>> => {
    await takeSlot(options);
    options.state.inFlight += 1;
    try {
      const response = await inner<T>(req);
      observe(options.state, response.headers, options.now());
      return response;
    } catch (error) {
      if (error instanceof EtlApiError && error.responseHeaders !== undefined) observe(options.state, error.responseHeaders, options.now());
      throw error;
    } finally {
      options.state.inFlight -= 1;
    }
  };
}

/**
 * The spacing to keep between requests now, or undefined when there is no need to pace: the
 * credits left spread over the time until the allowance renews when the service says when,
 * else the hourly allowance's own rate.
 */
export function pacingIntervalMs(state: PacingState, now = Date.now()): number | undefined {
  const { limit, renewsAt } = state;
  if (limit === undefined || state.remaining === undefined || limit <= 0) return undefined;
  const remaining = state.remaining - state.inFlight;
  const reserve = Math.max(RESERVE_MINIMUM, Math.ceil(limit * RESERVE_FRACTION));
  if (remaining >= reserve) return undefined;
  if (renewsAt !== undefined && renewsAt > now) return Math.min(HOUR_MS / limit, (renewsAt - now) / Math.max(remaining, 1));
  return HOUR_MS / limit;
}

/** Slots are claimed before waiting, so concurrent requests queue one interval apart. */
async function takeSlot(options: PacingOptions): Promise<void> {
  const { state, stats } = options;
  const now = options.now();
  const interval = pacingIntervalMs(state, now);
  const slot = interval === undefined ? now : Math.max(now, state.lastSlotAt + interval);
  state.lastSlotAt = Math.max(state.lastSlotAt, slot);
  const waitMs = slot - now;
  if (waitMs <= 0) return;
  stats.pacedWaits += 1;
  stats.pacedMs += waitMs;
  await cancellableSleep(options.sleep, options.signal)(waitMs);
}

function observe(state: PacingState, headers: Record<string, string>, now: number): void {
  const limit = countOf(headers["x-ratelimit-limit"]);
  const remaining = countOf(headers["x-ratelimit-remaining"]);
  const reset = countOf(headers["x-ratelimit-reset"]);
  if (limit !== undefined) state.limit = limit;
  if (remaining !== undefined) state.remaining = remaining;
  // Seconds from now, as the emulator sends it; a larger number is an epoch time, not taken.
  state.renewsAt = reset !== undefined && reset <= HOUR_MS / 1000 ? now + reset * 1000 : undefined;
}

function countOf(value: string | undefined): number | undefined {
  return value !== undefined && /^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined;
}
