/**
 * The one interval a cron's values could be, before its zone is weighed. The service repeats one
 * interval from a first run, so a cron is one exactly when its runs are evenly spaced:
 * - on every day, times of the day spaced by a step that divides the day (`*∕20`, `0,30`,
 *   `0 *∕6`, `30 6`): an interval of that step;
 * - one time on one day of the week: a week;
 * - one time on one day of the month, in months spaced by a step that divides the year
 *   (`0 6 1 * *`, `0 0 1 *∕3 *`, `@yearly`): that many months.
 * Anything else (two days of the week, two times on a weekday, a month's 1st and 15th) is runs
 * no one interval repeats.
 */
import type { CronSets } from "./cron-fields";
import { DAY } from "./cron-text";

export type Shape =
  | { kind: "daily"; times: number[]; step: number }
  | { kind: "weekly"; time: number; weekday: number }
  | { kind: "monthly"; time: number; monthDay: number; months: number[]; step: number };

/** Why a cron's values are no one interval: its times of a day are not evenly spaced, or its days are not. */
export type ShapeProblem = { kind: "uneven-times"; times: number[] } | { kind: "days"; times: number[] };

/** The step of values evenly spaced around a cycle (`[5, 35]` of 60 is 30), or undefined. */
export function cycleStep(values: readonly number[], cycle: number): number | undefined {
  const step = cycle / values.length;
  if (!Number.isInteger(step)) return undefined;
  return values.every((value, index) => value === values[0]! + index * step) ? step : undefined;
}

export function timesOfDay(sets: CronSets): number[] {
  return sets.hours.flatMap((hour) => sets.minutes.map((minute) => hour * 60 + minute));
}

function everyDay(sets: CronSets): boolean {
  const allDays = sets.monthDays.length === 31;
  const allWeekdays = sets.weekdays.length === 7;
  return sets.months.length === 12 && (sets.eitherDay ? allDays || allWeekdays : allDays && allWeekdays);
}

/** The interval a cron's values are, or why they are none. */
export function shapeOf(sets: CronSets): Shape | ShapeProblem {
  const times = timesOfDay(sets);
  if (everyDay(sets)) {
    const step = cycleStep(times, DAY);
    return step === undefined ? { kind: "uneven-times", times } : { kind: "daily", times, step };
  }
  const [time] = times;
  if (times.length !== 1 || sets.eitherDay) return { kind: "days", times };
  if (sets.months.length === 12 && sets.monthDays.length === 31 && sets.weekdays.length === 1)
    return { kind: "weekly", time: time!, weekday: sets.weekdays[0]! };
  const monthStep = cycleStep(sets.months, 12);
  if (sets.weekdays.length === 7 && sets.monthDays.length === 1 && monthStep !== undefined)
    return { kind: "monthly", time: time!, monthDay: sets.monthDays[0]!, months: sets.months, step: monthStep };
  return { kind: "days", times };
}
