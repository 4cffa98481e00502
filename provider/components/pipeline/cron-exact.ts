/**
 * Whether the service's one interval keeps a cron's times in its zone. The service repeats a
 * schedule's interval from its first run in UTC: minutes, hours, days and weeks as fixed lengths,
 * months on the same day of the month in UTC, or the month's last day when it is shorter. So
 * - a fixed interval keeps the cron's times exactly when every move of the zone's clock (summer
 *   time) is a whole number of intervals: any interval where the clock never moves, a step
 *   dividing 60 where it moves by an hour, 30 at Lord Howe, where it moves by half an hour;
 * - months keep them exactly when each of the cron's runs is the one the service counts: its
 *   day is in every month it names, it has the first run's offset (a yearly run in a winter
 *   month keeps one, even where the clock moves), and its day in UTC is that month's too.
 * The months are read run by run over 28 years, the cycle in which calendar and clock changes
 * repeat.
 */
import type { ScheduleIntervalUnit } from "../../../contract/vocabularies";
import type { Shape } from "./cron-shape";
import { DAY, HOUR } from "./cron-text";
import { instantOf, offsetAt, offsetsMet } from "./zone-offsets";

export type Interval = { amount: number; unit: ScheduleIntervalUnit };

/** Why the interval would run at other times than the cron: the zone's clock moves, a month lacks the day, or the day in UTC differs. */
export type Inexact =
  | { kind: "clock"; offsets: number[] }
  | { kind: "month-day"; year: number; month: number }
  | { kind: "utc-day"; year: number; month: number; serviceRun: Date };

export type Exactness = { shape: Shape; zone: string; start: Date; offsets: number[]; interval: Interval; inexact?: Inexact };

const ANCHOR = { year: 2026, month: 1, day: 1 };
const CYCLE_YEARS = 28;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** The largest step every move of the zone's clock keeps: the day where it never moves. */
export function largestStep(offsets: readonly number[]): number {
  return offsets.reduce((step, offset) => gcd(step, Math.abs(offset - offsets[0]!)), DAY);
}

function intervalOf(shape: Shape): Interval {
  if (shape.kind === "weekly") return { amount: 1, unit: "weeks" };
  if (shape.kind === "monthly") return { amount: shape.step, unit: "months" };
  if (shape.step === DAY) return { amount: 1, unit: "days" };
  return shape.step % HOUR === 0 ? { amount: shape.step / HOUR, unit: "hours" } : { amount: shape.step, unit: "minutes" };
}

/** The cron's first run on or after the anchor, in the zone. */
function firstRun(shape: Shape, zone: string): Date {
  const { year, month, day } = ANCHOR;
  if (shape.kind === "daily") return instantOf(zone, year, month, day, Math.floor(shape.times[0]! / HOUR), shape.times[0]! % HOUR);
  const at = (m: number, d: number) => instantOf(zone, year, m, d, Math.floor(shape.time / HOUR), shape.time % HOUR);
  if (shape.kind === "monthly") return at(shape.months[0]!, shape.monthDay);
  const anchorWeekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return at(month, day + ((shape.weekday - anchorWeekday + 7) % 7));
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The service's month arithmetic: the same day and time `months` later in UTC, or that month's last day. */
function monthsAfter(start: Date, months: number): number {
  const target = new Date(start.getTime());
  target.setUTCDate(1);
  target.setUTCMonth(start.getUTCMonth() + months);
  target.setUTCDate(Math.min(start.getUTCDate(), daysIn(target.getUTCFullYear(), target.getUTCMonth() + 1)));
  return target.getTime();
}

/** The first of a monthly cron's runs, over the cycle from the later of its start and `now`, that the service would run at another time. */
function monthlyInexact(shape: Extract<Shape, { kind: "monthly" }>, zone: string, start: Date, offsets: number[], now: number): Inexact | undefined {
  const [hour, minute] = [Math.floor(shape.time / HOUR), shape.time % HOUR];
  const until = Date.UTC(new Date(Math.max(start.getTime(), now)).getUTCFullYear() + CYCLE_YEARS, 0, 1);
  const startOffset = offsetAt(zone, start);
  for (let run = 0; ; run++) {
    const monthIndex = shape.months[0]! - 1 + run * shape.step;
    const [year, month] = [ANCHOR.year + Math.floor(monthIndex / 12), (monthIndex % 12) + 1];
    if (Date.UTC(year, month - 1, 1) > until) return undefined;
    if (shape.monthDay > daysIn(year, month)) return { kind: "month-day", year, month };
    const cronRun =
      offsets.length === 1
        ? Date.UTC(year, month - 1, shape.monthDay, hour, minute) - offsets[0]! * 60_000
        : instantOf(zone, year, month, shape.monthDay, hour, minute).getTime();
    const serviceRun = monthsAfter(start, run * shape.step);
    if (cronRun === serviceRun) continue;
    const moved = offsetAt(zone, new Date(cronRun)) !== startOffset;
    return moved ? { kind: "clock", offsets } : { kind: "utc-day", year, month, serviceRun: new Date(serviceRun) };
  }
}

/** The interval a cron's shape is, from its first run, and whether the service would keep every one of its times in the zone. */
export function exactness(shape: Shape, zone: string, now: number): Exactness {
  const start = firstRun(shape, zone);
  const offsets = offsetsMet(zone, start, now);
  const found = { shape, zone, start, offsets, interval: intervalOf(shape) };
  if (shape.kind === "monthly") {
    const inexact = monthlyInexact(shape, zone, start, offsets, now);
    return inexact === undefined ? found : { ...found, inexact };
  }
  const period = shape.kind === "weekly" ? 7 * DAY : shape.step;
  const kept = offsets.every((offset) => (offset - offsets[0]!) % period === 0);
  return kept ? found : { ...found, inexact: { kind: "clock", offsets } };
}
