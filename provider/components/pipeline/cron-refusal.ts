/**
 * Why a cron is refused, in its user's terms, with the nearest crons the service does run exactly
 * there. Every cron a message offers is one the same rule takes in that zone (or in UTC, where it
 * says so): the candidates are built from the refused cron's own values and kept only if taken.
 */
import type { Exactness, Inexact } from "./cron-exact";
import { largestStep } from "./cron-exact";
import type { CronSets } from "./cron-fields";
import { isExact } from "./cron-reading";
import type { ShapeProblem } from "./cron-shape";
import { cronText, DAY, EVERY_DAY, HOUR, clockTime, listed, modulo, someOf, stepText, timesSets, timesText } from "./cron-text";
import { offsetAt, utcOffsetText } from "./zone-offsets";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const STEPS = Array.from({ length: DAY }, (_, index) => index + 1).filter((step) => DAY % step === 0);

const ordinal = (day: number) =>
  `${day}${day % 10 === 1 && day !== 11 ? "st" : day % 10 === 2 && day !== 12 ? "nd" : day % 10 === 3 && day !== 13 ? "rd" : "th"}`;
const moves = (offsets: readonly number[]) => `moves between ${listed(offsets.map(utcOffsetText))}`;

/** Times of every day from `first`, `step` minutes apart, as cron values: none where cron cannot write them (every 90 minutes). */
function evenTimes(first: number, step: number): Pick<CronSets, "minutes" | "hours"> | undefined {
  const times = Array.from({ length: DAY / step }, (_, index) => (first + index * step) % DAY).sort((a, b) => a - b);
  return timesSets(times);
}

function quoted(sets: CronSets, step?: number): string {
  return `\`${cronText(sets)}\`${step === HOUR ? " (hourly)" : ""}`;
}

/** The exact crons of every day from the first of `times`, spaced by the exact steps next below and at or above `gap`. */
function nearestSteps(times: readonly number[], gap: number, zone: string, now: number): string[] {
  const exactAt = (step: number) => {
    const even = evenTimes(times[0]!, step);
    const sets = even === undefined ? undefined : { ...EVERY_DAY, ...even, eitherDay: false };
    return sets !== undefined && isExact(sets, zone, now) ? quoted(sets, step) : undefined;
  };
  const first = (steps: number[]) => steps.reduce<string | undefined>((found, step) => found ?? exactAt(step), undefined);
  const below = first(STEPS.filter((step) => step < gap).reverse());
  const above = first(STEPS.filter((step) => step >= gap));
  return [below, above].flatMap((text) => (text === undefined ? [] : [text]));
}

function gapsOf(values: readonly number[], cycle: number): number[] {
  return values.map((value, index) => (index + 1 < values.length ? values[index + 1]! : values[0]! + cycle) - value);
}

/** The step of values that step from the cycle's start and are cut short at its end (`*∕45` is 0 and 45), or undefined. */
function restartedStep(values: readonly number[], cycle: number): number | undefined {
  const gaps = gapsOf(values, cycle);
  const step = gaps[0]!;
  const stepped = values.length > 1 && values[0]! < step && gaps.slice(0, -1).every((gap) => gap === step) && gaps.at(-1)! < step;
  return stepped ? step : undefined;
}

function unevenTimes(cron: string, times: number[], zone: string, now: number): string {
  const sets = timesSets(times);
  const hourly = sets !== undefined && sets.hours.length === 24;
  const restarted = hourly ? restartedStep(sets.minutes, HOUR) : restartedStep(times, DAY);
  const again = restarted === undefined ? "" : hourly ? " (a step starts again at each hour)" : " (a step starts again each day)";
  const rule = hourly
    ? "a minute step must divide 60"
    : sets?.minutes.length === 1
      ? "an hour step must divide 24"
      : "the times of a day must be evenly spaced, by a step that divides the day";
  const nearest = nearestSteps(times, Math.max(...gapsOf(times, DAY)), zone, now);
  const around =
    restarted === undefined
      ? ""
      : `; for every ${stepText(restarted)} around the clock give interval { amount: ${restarted % HOUR === 0 ? `${restarted / HOUR}, unit: "hours"` : `${restarted}, unit: "minutes"`} } in place of cron`;
  return `cron "${cron}" runs at ${timesText(times)}${hourly ? "" : " each day"}${again}, which no one interval repeats: ${rule}; ${offered(nearest, zone)}${around}`;
}

function daysText(sets: CronSets): string {
  const parts = [
    sets.monthDays.length < 31 ? `on day ${someOf(sets.monthDays)} of the month` : "",
    sets.weekdays.length < 7 ? `${sets.eitherDay && sets.monthDays.length < 31 ? "or " : ""}on ${someOf(sets.weekdays.map((day) => WEEKDAYS[day]!))}` : "",
    sets.months.length < 12 ? `in ${someOf(sets.months.map((month) => MONTHS[month - 1]!))}` : "",
  ];
  return parts.filter((part) => part !== "").join(" ") || "every day";
}

/** Crons near one whose days are no one interval: its first time every day, on its first weekday, on its first day of the month, once a year. */
function nearestDays(sets: CronSets, times: number[], zone: string, now: number): string[] {
  const first = timesSets([times[0]!])!;
  const at = { ...EVERY_DAY, ...first, eitherDay: false };
  const everyDay = timesSets(times) === undefined ? [] : [{ ...EVERY_DAY, ...timesSets(times)!, eitherDay: false }];
  const candidates: CronSets[] = [
    ...(sets.weekdays.length < 7 ? [{ ...at, weekdays: [sets.weekdays[0]!] }] : []),
    ...(sets.monthDays.length < 31
      ? [
          { ...at, monthDays: [sets.monthDays[0]!], months: sets.months },
          { ...at, monthDays: [sets.monthDays[0]!] },
        ]
      : []),
    ...(sets.months.length < 12 ? [{ ...at, monthDays: [sets.monthDays[0]!], months: [sets.months[0]!] }] : []),
    ...everyDay,
    at,
  ];
  const texts = candidates.filter((candidate) => isExact(candidate, zone, now)).map((candidate) => quoted(candidate));
  return [...new Set(texts)].slice(0, 2);
}

function offered(crons: readonly string[], zone: string): string {
  return crons.length === 0 ? `nearest exact: none in ${zone}: give the times in UTC, or an interval in place of cron` : `nearest exact: ${crons.join(" or ")}`;
}

function unevenDays(cron: string, sets: CronSets, times: number[], zone: string, now: number): string {
  return `cron "${cron}" runs at ${timesText(times)} ${daysText(sets)}, which no one interval repeats: the service repeats minutes, hours, days, weeks or months, so a cron must run at evenly spaced times every day, at one time on one day of the week, or at one time on one day of the month in evenly spaced months; ${offered(nearestDays(sets, times, zone, now), zone)}`;
}

/** The same runs written in UTC, where they are exact, with what they are in the zone at each of its offsets. */
function inUtc(reading: Exactness, now: number): string | undefined {
  const { shape, start, offsets } = reading;
  const startOffset = offsetAt(reading.zone, start);
  const times = shape.kind === "daily" ? shape.times : [shape.time];
  const utcTimes = times.map((time) => modulo(time - startOffset, DAY)).sort((a, b) => a - b);
  const sets = { ...EVERY_DAY, ...timesSets(utcTimes)!, eitherDay: false };
  if (shape.kind === "weekly") sets.weekdays = [start.getUTCDay()];
  if (shape.kind === "monthly") {
    const shift = start.getUTCMonth() + 1 - shape.months[0]!;
    sets.monthDays = [start.getUTCDate()];
    sets.months = shape.months.map((month) => modulo(month - 1 + shift, 12) + 1).sort((a, b) => a - b);
  }
  if (!isExact(sets, "UTC", now)) return undefined;
  const there = offsets.map(
    (offset) =>
      `${timesText(
        utcTimes.map((time) => modulo(time + offset, DAY)).sort((a, b) => a - b),
        true,
      )} at ${utcOffsetText(offset)}`,
  );
  return `\`${cronText(sets)}\` in UTC, which there is ${listed(there)}`;
}

function clockRule(cron: string, reading: Exactness, now: number): string {
  const { shape, zone, offsets } = reading;
  const kept = shape.kind === "daily" ? timesText(shape.times) : clockTime(shape.time);
  const head = `cron "${cron}" in ${zone} cannot run at ${kept} there all year: the service repeats one interval in UTC, and the clock there ${moves(offsets)}`;
  const largest = largestStep(offsets);
  const steps = shape.kind === "daily" && shape.step < DAY && largest < DAY ? nearestSteps(shape.times, shape.step, zone, now) : [];
  const stepRule = steps.length === 0 ? "" : `; a step there must divide ${stepText(largest)}; nearest exact: ${steps.join(" or ")}`;
  const utc = inUtc(reading, now);
  return `${head}${stepRule}; exact instead: ${utc === undefined ? "" : `${utc}, or `}a time zone that keeps one offset`;
}

/** The same cron on the nearest earlier day, and at the nearest time of its own day, that are exact. */
function nearestMonthly(sets: CronSets, zone: string, now: number): string[] {
  const [day, hour] = [sets.monthDays[0]!, sets.hours[0]!];
  const days = Array.from({ length: day - 1 }, (_, index) => ({ ...sets, monthDays: [day - 1 - index] }));
  const hours = Array.from({ length: 23 }, (_, index) => (index % 2 === 0 ? hour - 1 - index / 2 : hour + 1 + (index - 1) / 2))
    .filter((h) => h >= 0 && h <= 23)
    .map((h) => ({ ...sets, hours: [h] }));
  return [days.find((candidate) => isExact(candidate, zone, now)), hours.find((candidate) => isExact(candidate, zone, now))].flatMap((c) =>
    c === undefined ? [] : [quoted(c)],
  );
}

function monthRule(cron: string, sets: CronSets, reading: Exactness, inexact: Exclude<Inexact, { kind: "clock" }>, now: number): string {
  const { shape, zone } = reading;
  if (shape.kind !== "monthly") throw new Error("a month's rule is for a monthly cron");
  const every = shape.step === 12 ? `every ${MONTHS[shape.months[0]! - 1]}` : shape.step === 1 ? "every month" : `every ${shape.step} months`;
  const when = `${MONTHS[inexact.month - 1]} ${inexact.year}`;
  const why =
    inexact.kind === "month-day"
      ? `${when} has no ${ordinal(shape.monthDay)}: cron does not run that month, and the service would run on its last day`
      : `${clockTime(shape.time)} there is the ${ordinal(reading.start.getUTCDate())} in UTC, where the service counts months from its first run, so in ${when} it would run at ${localText(inexact.serviceRun, zone)} there`;
  return `cron "${cron}" in ${zone} cannot run on the ${ordinal(shape.monthDay)} there ${every}: ${why}; ${offered(nearestMonthly(sets, zone, now), zone)}`;
}

function localText(at: Date, zone: string): string {
  const local = new Date(at.getTime() + offsetAt(zone, at) * 60_000);
  return `${clockTime(local.getUTCHours() * HOUR + local.getUTCMinutes())} on ${local.getUTCDate()} ${MONTHS[local.getUTCMonth()]}`;
}

/** The message for a cron the service would not run exactly in the zone. */
export function refusalOf(cron: string, sets: CronSets, zone: string, reading: Exactness | ShapeProblem, now: number): string {
  if (!("start" in reading))
    return reading.kind === "uneven-times" ? unevenTimes(cron, reading.times, zone, now) : unevenDays(cron, sets, reading.times, zone, now);
  const inexact = reading.inexact!;
  return inexact.kind === "clock" ? clockRule(cron, reading, now) : monthRule(cron, sets, reading, inexact, now);
}
