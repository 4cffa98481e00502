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
}

export function systemClock(speed = 1): Clock {
  if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`speed must be a positive number, got ${speed}`);
  return {
    now: () => Date.now(),
    speed,
    duration: (seconds) => (seconds * 1000) / speed,
  };
}

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
