import type { ScheduleIntervalUnit } from "../../../contract/vocabularies";
import type { Clock } from "../../clock";

/**
 * When a schedule runs: at `start_at` and every interval after it, always counted from
 * `start_at` so runs never drift (a monthly schedule started on the 31st runs on the last day of
 * shorter months and on the 31st again after them). Intervals are simulated time, so
 * `--speed N` brings the runs N times closer together; `start_at` itself is a wall-clock time.
 */

export interface Interval {
  startAt: string;
  intervalAmount: number;
  intervalUnit: ScheduleIntervalUnit;
}

const UNIT_SECONDS: Readonly<Record<Exclude<ScheduleIntervalUnit, "months">, number>> = {
  minutes: 60,
  hours: 3600,
  days: 86_400,
  weeks: 604_800,
};

/** A month on average, only to guess which run is near a given time. */
const AVERAGE_MONTH_SECONDS = 30.436875 * 86_400;

/** The last instant a date can hold; a run that would fall later never comes. */
const LAST_TIME = 8.64e15;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** The same day and time `months` later, or the last day of that month when it is shorter. */
function addMonths(ms: number, months: number): number {
  const from = new Date(ms);
  const target = new Date(ms);
  target.setUTCDate(1);
  target.setUTCMonth(from.getUTCMonth() + months);
  target.setUTCDate(Math.min(from.getUTCDate(), daysInMonth(target.getUTCFullYear(), target.getUTCMonth())));
  return target.getTime();
}

/** Simulated seconds from `start_at` to run number `k` (run 0 is at `start_at`). */
function secondsToRun(interval: Interval, start: number, k: number): number {
  const units = k * interval.intervalAmount;
  if (interval.intervalUnit === "months") return (addMonths(start, units) - start) / 1000;
  return units * UNIT_SECONDS[interval.intervalUnit];
}

function averageIntervalSeconds(interval: Interval): number {
  const unit = interval.intervalUnit === "months" ? AVERAGE_MONTH_SECONDS : UNIT_SECONDS[interval.intervalUnit];
  return interval.intervalAmount * unit;
}

/**
 * The first run at or after `at` (wall-clock ms), or undefined when it would fall beyond the
 * last representable date. Times are whole milliseconds, so a run is found again exactly.
 */
export function firstRunFrom(interval: Interval, clock: Pick<Clock, "duration">, at: number): number | undefined {
  const start = Date.parse(interval.startAt);
  const runAt = (k: number): number => start + Math.round(clock.duration(secondsToRun(interval, start, k)));
  let k = Math.max(0, Math.floor((at - start) / clock.duration(averageIntervalSeconds(interval))));
  while (k > 0 && runAt(k - 1) >= at) k--;
  // A run past the last date is NaN or too large, which ends the search either way.
  while (runAt(k) < at) k++;
  const time = runAt(k);
  return time <= LAST_TIME ? time : undefined;
}
