/**
 * Time for the lifecycles. Records hold wall-clock timestamps (so a restarted emulator carries
 * on where it stopped); `--speed N` divides every simulated duration by N, for tests.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** How many times faster than real time lifecycles run. */
  readonly speed: number;
  /** Wall-clock milliseconds that a simulated duration of `seconds` takes. */
  duration(seconds: number): number;
  /** When the speed last changed (wall-clock ms): no transition it brings forward happens before then. */
  readonly speedChangedAt?: number;
}

/** A clock whose speed a harness may change while it runs (`PUT /_emulator/clock`). */
export interface AdjustableClock extends Clock {
  setSpeed(speed: number): void;
}

export function isAdjustable(clock: Clock): clock is AdjustableClock {
  return typeof (clock as Partial<AdjustableClock>).setSpeed === "function";
}

function checkSpeed(speed: number): void {
  if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`speed must be a positive number, got ${speed}`);
}

export function systemClock(initialSpeed = 1): AdjustableClock {
  checkSpeed(initialSpeed);
  let speed = initialSpeed;
  let speedChangedAt: number | undefined;
  return {
    now: () => Date.now(),
    get speed() {
      return speed;
    },
    get speedChangedAt() {
      return speedChangedAt;
    },
    duration: (seconds) => (seconds * 1000) / speed,
    setSpeed(next) {
      checkSpeed(next);
      speed = next;
      speedChangedAt = Date.now();
    },
  };
}

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
