/**
 * A pipeline's cron against an evaluator of cron that is not the provider's (cron-parser): for
 * every form the provider reads, in zones with and without summer time, with whole-hour,
 * half-hour and three-quarter offsets, the runs of the one interval it reads the cron as (counted
 * as the local service counts them, emulator/areas/schedules/timing.ts) are the cron's own runs
 * in every window looked at, around each change of the zone's clock as well, exactly when the
 * cron is taken; a cron that is refused is one whose runs differ somewhere.
 */
import { CronExpressionParser } from "cron-parser";
import { describe, expect, it } from "vitest";
import { firstRunFrom } from "../../emulator/areas/schedules/timing";
import { cronReading, timingOfCron } from "../../provider/components/pipeline/cron";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const ZONES = [
  "UTC",
  "Europe/Berlin",
  "America/New_York",
  "Australia/Sydney",
  "Australia/Lord_Howe", // its clock moves by 30 minutes
  "Asia/Kolkata", // UTC+05:30
  "Asia/Kathmandu", // UTC+05:45
  "America/Bogota",
  "Pacific/Kiritimati", // UTC+14:00
  "Etc/GMT+12", // UTC-12:00
];

const range = (count: number, from = 0) => Array.from({ length: count }, (_, index) => from + index);
const CRONS = [
  ...range(59, 1).map((step) => `*/${step} * * * *`),
  ...[0, 5, 15, 30, 45, 59].map((minute) => `${minute} * * * *`),
  ...["0 0", "30 0", "30 2", "0 6", "15 12", "45 23"].map((time) => `${time} * * *`),
  ...range(7).flatMap((weekday) => [`30 0 * * ${weekday}`, `30 23 * * ${weekday}`]),
  ...[1, 27, 28].flatMap((day) => ["0 0", "0 12", "0 22"].map((time) => `${time} ${day} * *`)),
];

type ClockChange = { at: number; minutes: number };

/** Minutes ahead of UTC, from `GMT+05:30`. */
function offsetMinutes(text: string): number {
  const [, sign, hours, minutes] = /^GMT(?:([+-])(\d\d):(\d\d))?$/.exec(text)!;
  return sign === undefined ? 0 : (sign === "-" ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
}

/** The instants in 2026 at which the zone's clock moves, to the minute, and by how many minutes. */
function clockChanges(zone: string): ClockChange[] {
  const format = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" });
  const offsetAt = (at: number) => format.formatToParts(at).find((part) => part.type === "timeZoneName")!.value;
  const changes: ClockChange[] = [];
  for (let day = Date.UTC(2026, 0, 1); day < Date.UTC(2027, 0, 1); day += DAY) {
    if (offsetAt(day) === offsetAt(day + DAY)) continue;
    let [before, after] = [day, day + DAY];
    while (after - before > MINUTE) {
      const middle = before + Math.floor((after - before) / 2 / MINUTE) * MINUTE;
      [before, after] = offsetAt(middle) === offsetAt(before) ? [middle, after] : [before, middle];
    }
    changes.push({ at: after, minutes: offsetMinutes(offsetAt(after)) - offsetMinutes(offsetAt(before)) });
  }
  return changes;
}

type Window = { from: number; to: number };

/**
 * Windows around a quiet time and each change of the zone's clock, as long as a few of the
 * form's runs; for monthly ones, the first months with a February of 28 days, the months of the
 * other half of the year (the other side of the clock's changes) and a February of 29 days.
 */
function windowsFor(unit: string, changes: ClockChange[]): Window[] {
  if (unit === "months")
    return [
      { from: Date.UTC(2026, 0, 2), to: Date.UTC(2026, 2, 31) },
      { from: Date.UTC(2026, 5, 2), to: Date.UTC(2026, 7, 1) },
      { from: Date.UTC(2028, 1, 2), to: Date.UTC(2028, 2, 3) },
    ];
  const [before, after] = { minutes: [HOUR, HOUR], hours: [3 * HOUR, 3 * HOUR], days: [2 * DAY, 3 * DAY], weeks: [7 * DAY, 14 * DAY] }[unit]!;
  return [Date.UTC(2026, 0, 26, 12), ...changes.map((change) => change.at), Date.UTC(2027, 6, 5, 12)].map((at) => ({ from: at - before!, to: at + after! }));
}

/**
 * Where evaluators of cron disagree with each other: the half hours either side of a change of
 * half an hour (Lord Howe), whose wall-clock times are shown twice or lie next to the half hour
 * skipped. There cron-parser runs none of the half hour after the change, and does not find the
 * next run of a time in the hour of the change at all; croner runs a repeated time once; cron's
 * own daemon runs a wildcard hour's minutes as the clock shows them, which is the interval's every
 * run. Both sides of the comparison leave these spans out.
 */
function disputed(changes: ClockChange[]): Window[] {
  const halfHours = changes.filter((change) => change.minutes % 60 !== 0);
  return halfHours.map((change) => ({ from: change.at - Math.abs(change.minutes) * MINUTE, to: change.at + Math.abs(change.minutes) * MINUTE }));
}

/** Runs from `start` to before `end`, found forwards, or backwards from `end` when the time after it is disputed. */
function cronRunsBetween(cron: string, zone: string, start: number, end: number, backwards: boolean): number[] {
  const runs = CronExpressionParser.parse(cron, { tz: zone, currentDate: new Date(backwards ? end : start - 1) });
  const found: number[] = [];
  if (backwards) for (let at = runs.prev().getTime(); at >= start; at = runs.prev().getTime()) found.unshift(at);
  else for (let at = runs.next().getTime(); at < end; at = runs.next().getTime()) found.push(at);
  return found;
}

/** The cron's own runs in a window, by cron-parser, leaving out the disputed spans (where it may not find the next run at all). */
function cronRuns(cron: string, zone: string, { from, to }: Window, leftOut: Window[] = []): number[] {
  const bounds = [from, ...leftOut.filter((span) => span.to > from && span.from < to).flatMap((span) => [span.from, span.to]), to];
  const parts = bounds.length / 2;
  return range(parts).flatMap((part) => cronRunsBetween(cron, zone, bounds[2 * part]!, bounds[2 * part + 1]!, part < parts - 1));
}

const REAL_TIME = { duration: (seconds: number) => seconds * 1000 };

/** The runs of a schedule in a window, as the local service counts them from its start. */
function scheduleRuns(interval: { amount: number; unit: string }, start: Date, { from, to }: Window): number[] {
  const schedule = { startAt: start.toISOString(), intervalAmount: interval.amount, intervalUnit: interval.unit as "minutes" };
  const found: number[] = [];
  for (let at = firstRunFrom(schedule, REAL_TIME, from); at !== undefined && at < to; at = firstRunFrom(schedule, REAL_TIME, at + 1)) found.push(at);
  return found;
}

const iso = (runs: number[]) => runs.map((at) => new Date(at).toISOString());

/** The first window in which the one interval the cron reads as runs at other times than the cron, or undefined. */
function firstDifference(cron: string, zone: string, changes: ClockChange[]) {
  const reading = cronReading(cron, zone);
  if (!reading.ok) throw new Error(reading.message);
  const { interval } = reading.form;
  const leftOut = disputed(changes);
  const undisputed = (at: number) => !leftOut.some((span) => at >= span.from && at < span.to);
  for (const window of windowsFor(interval.unit, changes)) {
    const expected = iso(cronRuns(cron, zone, window, leftOut));
    const actual = iso(scheduleRuns(interval, reading.start, window).filter(undisputed));
    if (expected.join() !== actual.join()) return { window: new Date(window.from).toISOString(), expected, actual };
  }
  return undefined;
}

describe.each(ZONES)("every cron form read in %s", (zone) => {
  const changes = clockChanges(zone);

  it("is taken exactly when its interval runs at the cron's own times, and refused naming the rule otherwise", () => {
    let taken = 0;
    for (const cron of CRONS) {
      const result = timingOfCron(cron, zone);
      const difference = firstDifference(cron, zone, changes);
      expect({ cron, taken: result.ok, difference }).toEqual({ cron, taken: difference === undefined, difference });
      if (result.ok) taken++;
      else expect(result.message).toMatch(new RegExp(`^cron "${cron.replace(/[*]/g, "\\*")}" .*: .*(must divide|exact instead)`));
    }
    expect(taken).toBeGreaterThan(0);
    expect(taken).toBeLessThan(CRONS.length);
  });
});

describe("the windows looked at", () => {
  it("hold each change of a zone's clock in 2026: an hour in Berlin and Sydney, half an hour at Lord Howe, none in Kolkata", () => {
    const changed = (zone: string) => clockChanges(zone).map((change) => [new Date(change.at).toISOString(), change.minutes]);
    expect(changed("Europe/Berlin")).toEqual([
      ["2026-03-29T01:00:00.000Z", 60],
      ["2026-10-25T01:00:00.000Z", -60],
    ]);
    expect(changed("Australia/Sydney")).toEqual([
      ["2026-04-04T16:00:00.000Z", -60],
      ["2026-10-03T16:00:00.000Z", 60],
    ]);
    expect(changed("Australia/Lord_Howe")).toEqual([
      ["2026-04-04T15:00:00.000Z", -30],
      ["2026-10-03T15:30:00.000Z", 30],
    ]);
    expect(changed("Asia/Kolkata")).toEqual([]);
  });

  it("leave out only the half hours either side of a change of half an hour, where cron-parser runs none of a wildcard hour's minutes after it", () => {
    const [fallBack] = clockChanges("Australia/Lord_Howe");
    const around = { from: fallBack!.at - HOUR, to: fallBack!.at + HOUR };
    const reading = cronReading("*/10 * * * *", "Australia/Lord_Howe");
    if (!reading.ok) throw new Error(reading.message);
    const missing = scheduleRuns(reading.form.interval, reading.start, around).filter(
      (at) => !cronRuns("*/10 * * * *", "Australia/Lord_Howe", around).includes(at),
    );
    expect(iso(missing)).toEqual(["2026-04-04T15:00:00.000Z", "2026-04-04T15:10:00.000Z", "2026-04-04T15:20:00.000Z"]);
    expect(disputed(clockChanges("Australia/Lord_Howe")).map(({ from, to }) => iso([from, to]))).toEqual([
      ["2026-04-04T14:30:00.000Z", "2026-04-04T15:30:00.000Z"],
      ["2026-10-03T15:00:00.000Z", "2026-10-03T16:00:00.000Z"],
    ]);
    expect(disputed(clockChanges("Europe/Berlin"))).toEqual([]);
  });
});

describe("a minute step out of cron's range", () => {
  it("is minute 0 alone to cron-parser for 60 and more, the hourly form the refusal names, and no time at all for 0", () => {
    const day = { from: Date.UTC(2026, 0, 26), to: Date.UTC(2026, 0, 27) };
    for (const cron of ["*/60 * * * *", "*/90 * * * *"]) {
      expect(cronRuns(cron, "UTC", day)).toEqual(cronRuns("0 * * * *", "UTC", day));
      expect(timingOfCron(cron, "UTC")).toMatchObject({ ok: false, message: expect.stringContaining("every hour is `0 * * * *`") });
    }
    expect(() => CronExpressionParser.parse("*/0 * * * *")).toThrow();
    expect(timingOfCron("*/0 * * * *", "UTC")).toMatchObject({ ok: false, message: expect.stringContaining("out of cron's range 1 to 59") });
  });
});
