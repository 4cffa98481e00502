/**
 * Slowing down before the hourly allowance runs out, rather than meeting 429s: the service
 * reports `X-RateLimit-Limit` and `X-RateLimit-Remaining` on every authenticated answer, and
 * once the remainder falls below a reserve, requests are spaced at the allowance's sustainable
 * rate (one per 3600 s / limit). One state per process, shared by every request, since they all
 * draw on the same allowance. Without the headers nothing is paced.
 */
import { EtlApiError } from "../errors";
import type { ApiRequest, ApiResponse, RequestFn } from "../http";
import { cancellableSleep } from "./cancel";
import type { Clock } from "./clock";
import type { ClientStats } from "./stats";

export interface PacingState {
  limit?: number;
  remaining?: number;
  /** When the latest request was let through (or is scheduled to be). */
  lastSlotAt: number;
}

export function createPacingState(): PacingState {
  return { lastSlotAt: Number.NEGATIVE_INFINITY };
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
    try {
      const response = await inner<T>(req);
      observe(options.state, response.headers);
      return response;
    } catch (error) {
      if (error instanceof EtlApiError && error.responseHeaders !== undefined) observe(options.state, error.responseHeaders);
      throw error;
    }
  };
}

/** The spacing to keep between requests now, or undefined when there is no need to pace. */
export function pacingIntervalMs(state: PacingState): number | undefined {
  const { limit, remaining } = state;
  if (limit === undefined || remaining === undefined || limit <= 0) return undefined;
  const reserve = Math.max(RESERVE_MINIMUM, Math.ceil(limit * RESERVE_FRACTION));
  return remaining < reserve ? HOUR_MS / limit : undefined;
}

/** Slots are claimed before waiting, so concurrent requests queue one interval apart. */
async function takeSlot(options: PacingOptions): Promise<void> {
  const { state, stats } = options;
  const now = options.now();
  const interval = pacingIntervalMs(state);
  const slot = interval === undefined ? now : Math.max(now, state.lastSlotAt + interval);
  state.lastSlotAt = Math.max(state.lastSlotAt, slot);
  const waitMs = slot - now;
  if (waitMs <= 0) return;
  stats.pacedWaits += 1;
  stats.pacedMs += waitMs;
  await cancellableSleep(options.sleep, options.signal)(waitMs);
}

function observe(state: PacingState, headers: Record<string, string>): void {
  const limit = countOf(headers["x-ratelimit-limit"]);
  const remaining = countOf(headers["x-ratelimit-remaining"]);
  if (limit !== undefined) state.limit = limit;
  if (remaining !== undefined) state.remaining = remaining;
}

function countOf(value: string | undefined): number | undefined {
  return value !== undefined && /^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined;
}
