import { CREDITS_PER_HOUR } from "../contract/limits";

/**
 * The hourly credit allowance of spec section 8: each authenticated API call costs one credit
 * of the calling user's allowance, but for the free ones (`Route.free`: the allowance's own
 * status, facts section 0).
 *
 * Windows are fixed, one per user, and last one real hour from the first call made after the
 * previous window ended. They follow the wall clock, not `--speed`: the allowance limits how
 * fast a client may call, which a faster lifecycle clock does not change. Refused calls cost
 * nothing, so a client that keeps retrying does not push its renewal further away.
 */

/** The documented allowance, unless the emulator is started with another. */
export const DEFAULT_CREDITS_PER_HOUR = CREDITS_PER_HOUR;
export const CREDIT_WINDOW_MS = 60 * 60 * 1000;

export interface CreditStatus {
  /** True when the call was charged (or, for `peek`, would be). */
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds, at least 1, until the user's window renews. */
  renewsInSeconds: number;
}

/** A user's window as the control endpoints show it. */
export interface CreditWindow {
  userId: number;
  limit: number;
  used: number;
  remaining: number;
  renewsInSeconds: number;
}

interface Window {
  startedAt: number;
  used: number;
}

function checkCreditsPerHour(value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`creditsPerHour must be a positive integer, got ${value}`);
  }
}

export class CreditLedger {
  private readonly windows = new Map<number, Window>();

  /**
   * `windowMs` shortens the window from the spec's hour, so a test sees an allowance run out
   * and renew in seconds; `perHour` is then the allowance of each such window.
   */
  constructor(
    readonly perHour: number = DEFAULT_CREDITS_PER_HOUR,
    private readonly now: () => number = Date.now,
    readonly windowMs: number = CREDIT_WINDOW_MS,
  ) {
    checkCreditsPerHour(perHour);
    if (!Number.isSafeInteger(windowMs) || windowMs < 1000)
      throw new RangeError(`the credit window must be a whole number of milliseconds, at least 1000, got ${windowMs}`);
  }

  /** Spends one credit of the user's allowance if any is left. */
  charge(userId: number): CreditStatus {
    const at = this.now();
    const window = this.currentWindow(userId, at);
    const allowed = window.used < this.perHour;
    if (allowed) window.used++;
    return this.status(window, at, allowed);
  }

  /** The user's allowance as it stands, without spending anything. */
  peek(userId: number): CreditStatus {
    const at = this.now();
    const window = this.liveWindow(userId, at);
    if (window === undefined) return { allowed: true, limit: this.perHour, remaining: this.perHour, renewsInSeconds: Math.ceil(this.windowMs / 1000) };
    return this.status(window, at, window.used < this.perHour);
  }

  /** The user's current window; a user with none yet has a full allowance and a whole hour. */
  window(userId: number): CreditWindow {
    const { limit, remaining, renewsInSeconds } = this.peek(userId);
    return { userId, limit, used: limit - remaining, remaining, renewsInSeconds };
  }

  /** Sets what is left of the user's current window, which starts now if none is running. */
  setRemaining(userId: number, remaining: number): void {
    if (!Number.isSafeInteger(remaining) || remaining < 0 || remaining > this.perHour) {
      throw new RangeError(`remaining must be an integer from 0 to ${this.perHour}, got ${remaining}`);
    }
    this.currentWindow(userId, this.now()).used = this.perHour - remaining;
  }

  /** Every window ends now, as if its hour had passed: each user's next call opens a full one. */
  renewAll(): void {
    this.windows.clear();
  }

  private liveWindow(userId: number, at: number): Window | undefined {
    const window = this.windows.get(userId);
    return window !== undefined && at - window.startedAt < this.windowMs ? window : undefined;
  }

  private currentWindow(userId: number, at: number): Window {
    let window = this.liveWindow(userId, at);
    if (window === undefined) {
      window = { startedAt: at, used: 0 };
      this.windows.set(userId, window);
    }
    return window;
  }

  private status(window: Window, at: number, allowed: boolean): CreditStatus {
    const left = window.startedAt + this.windowMs - at;
    return {
      allowed,
      limit: this.perHour,
      remaining: this.perHour - window.used,
      renewsInSeconds: Math.max(1, Math.ceil(left / 1000)),
    };
  }
}

/**
 * The headers every authenticated API response carries: the spec's two, and the seconds until
 * the window renews (`X-RateLimit-Reset`), which the service documents nowhere but a client may
 * use when it is there.
 */
export function rateLimitHeaders(status: CreditStatus): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(status.limit),
    "X-RateLimit-Remaining": String(status.remaining),
    "X-RateLimit-Reset": String(status.renewsInSeconds),
  };
}

export function creditsExhaustedMessage(status: CreditStatus): string {
  return `Rate Limit Exceeded: the hourly allowance of ${status.limit} credits is used up; it renews in ${status.renewsInSeconds} seconds.`;
}
