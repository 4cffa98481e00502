/**
 * Whether the service's one interval keeps a cron's times. The service repeats a schedule's
 * interval from its first run in UTC: minutes, hours, days and weeks as fixed lengths, months on
 * the same day of the month in UTC, or the month's last day when it is shorter. So a cron is
 * refused, with the rule and the nearest forms that are exact, when
 * - its minute step does not divide the hour: `*` with a step of 45 is minutes 0 and 45 of each
 *   hour, as cron starts the step again each hour, whereas 45 minutes after 00:45 is 01:30;
 * - its zone's clock moves (summer time) by an amount its period does not divide: a daily,
 *   weekly or monthly time at any move, an hourly minute at a move of half an hour (Lord Howe);
 * - it is monthly on a day that is the 29th in UTC, which a February of 28 days does not have.
 */
import type { ScheduleIntervalUnit } from "../../../contract/vocabularies";
import { offsetsMet, utcOffsetText } from "./zone-offsets";

/** A cron of one of the forms taken, field by field. */
export type CronForm = { interval: { amount: number; unit: ScheduleIntervalUnit }; hour: number; minute: number; weekday?: number; monthDay?: number };

type Reading = { zone: string; form: CronForm; start: Date };

const HOUR = 60;
const DAY = 24 * HOUR;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const two = (value: number) => String(value).padStart(2, "0");
const clockTime = (minuteOfDay: number) => `${two(Math.floor(minuteOfDay / HOUR))}:${two(minuteOfDay % HOUR)}`;
const modulo = (value: number, by: number) => ((value % by) + by) % by;

function listed(items: string[]): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** The largest minute step every move of the zone's clock keeps: 60 where it moves by whole hours or not at all. */
function largestStep(offsets: number[]): number {
  return offsets.reduce((step, offset) => gcd(step, Math.abs(offset - offsets[0]!)), HOUR);
}

function stepCron(step: number): string {
  return step === HOUR ? "`0 * * * *` (hourly)" : `\`*/${step} * * * *\``;
}

/** The exact steps next below and above `step`: those that divide `largest`. */
function nearestSteps(step: number, largest: number): string {
  const exact = Array.from({ length: largest }, (_, index) => index + 1).filter((candidate) => largest % candidate === 0);
  const below = exact.filter((candidate) => candidate < step).at(-1);
  const above = exact.find((candidate) => candidate > step);
  return [below, above].flatMap((candidate) => (candidate === undefined ? [] : [stepCron(candidate)])).join(" or ");
}

function minutesOfHour(step: number): string {
  const minutes = Array.from({ length: Math.ceil(HOUR / step) }, (_, index) => index * step);
  return minutes.length <= 4 ? listed(minutes.map(String)) : `${minutes.slice(0, 3).join(", ")}, … ${minutes.at(-1)}`;
}

function moves(offsets: number[]): string {
  return `moves between ${listed(offsets.map(utcOffsetText))}`;
}

function minuteStepRule(cron: string, step: number, zone: string, offsets: number[]): string | undefined {
  const largest = largestStep(offsets);
  if (largest % step === 0) return undefined;
  const nearest = `nearest exact: ${nearestSteps(step, largest)}`;
  if (HOUR % step !== 0) {
    const rule = largest === HOUR ? "a minute step must divide 60" : `a minute step must divide ${largest} in ${zone}, whose clock ${moves(offsets)}`;
    return `cron "${cron}" runs at minutes ${minutesOfHour(step)} of each hour (a step starts again at each hour), which no one interval repeats: ${rule}; ${nearest}; for every ${step} minutes around the clock give interval { amount: ${step}, unit: "minutes" } in place of cron`;
  }
  return `cron "${cron}" in ${zone} cannot run at minutes ${minutesOfHour(step)} of each hour there all year: the service repeats one interval in UTC, and the clock there ${moves(offsets)}; a minute step there must divide ${largest}; ${nearest}`;
}

/** The same runs written in UTC, where they are exact, with what they are in the zone at each of its offsets. */
function inUtc(form: CronForm, start: Date, offsets: number[]): string | undefined {
  const minuteOfDay = start.getUTCHours() * HOUR + start.getUTCMinutes();
  if (form.interval.unit === "hours") {
    const there = offsets.map((offset) => `minute ${modulo(start.getUTCMinutes() + offset, HOUR)} at ${utcOffsetText(offset)}`);
    return `\`${start.getUTCMinutes()} * * * *\` in UTC, which there is ${listed(there)}`;
  }
  const time = `${start.getUTCMinutes()} ${start.getUTCHours()}`;
  const utcDay = start.getUTCDate();
  if (form.monthDay !== undefined && utcDay > 28) return undefined;
  const cron = form.monthDay !== undefined ? `${time} ${utcDay} * *` : form.weekday !== undefined ? `${time} * * ${start.getUTCDay()}` : `${time} * * *`;
  const there = offsets.map((offset) => `${clockTime(modulo(minuteOfDay + offset, DAY))} at ${utcOffsetText(offset)}`);
  return `\`${cron}\` in UTC, which there is ${listed(there)}`;
}

function clockRule(cron: string, reading: Reading, offsets: number[]): string | undefined {
  const { form, zone, start } = reading;
  if (form.interval.unit === "hours" ? largestStep(offsets) === HOUR : offsets.length === 1) return undefined;
  const kept = form.interval.unit === "hours" ? `minute ${form.minute} of each hour` : clockTime(form.hour * HOUR + form.minute);
  const utc = inUtc(form, start, offsets);
  const instead = `${utc === undefined ? "" : `${utc}, or `}a time zone that keeps one offset`;
  return `cron "${cron}" in ${zone} cannot run at ${kept} there all year: the service repeats one interval in UTC, and the clock there ${moves(offsets)}; exact instead: ${instead}`;
}

/** A monthly run counted from the 29th in UTC falls on the 28th of a February of 28 days, a day early. */
function monthDayRule(cron: string, reading: Reading, offset: number): string | undefined {
  const { form, zone, start } = reading;
  if (form.monthDay === undefined || start.getUTCDate() !== 29) return undefined;
  const dayStartsThere = clockTime(modulo(offset, DAY));
  return `cron "${cron}" in ${zone} cannot run on the ${form.monthDay}th there every month: ${clockTime(form.hour * HOUR + form.minute)} there is already the 29th in UTC, where the service counts months, so in a February of 28 days it would run on the ${form.monthDay - 1}th there; exact instead: a day from 1 to ${form.monthDay - 1}, or a time before ${dayStartsThere} on the ${form.monthDay}th`;
}

/** Why the service's interval would not keep the cron's times, or undefined when it keeps every one. */
export function inexactness(cron: string, reading: Reading, now: number): string | undefined {
  const offsets = offsetsMet(reading.zone, reading.start, now);
  if (reading.form.interval.unit === "minutes") return minuteStepRule(cron, reading.form.interval.amount, reading.zone, offsets);
  return clockRule(cron, reading, offsets) ?? monthDayRule(cron, reading, offsets[0]!);
}
