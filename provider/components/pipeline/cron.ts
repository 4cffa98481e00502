/**
 * A pipeline's schedule written as cron, made into what the service's schedules take: an interval
 * and the time of a first run. The service repeats a fixed interval, so only the cron forms that
 * are one are taken: every N minutes, hourly, daily, weekly and monthly, at a time of day in a
 * time zone. The first run is the first such time on or after 2026-01-01 in that zone, a fixed
 * anchor, so the same cron always gives the same schedule and a preview shows no change.
 */
import { TIME_ZONES } from "../../../contract/catalogues";
import type { ScheduleIntervalUnit } from "../../../contract/vocabularies";

export interface ScheduleTiming {
  interval: { amount: number; unit: ScheduleIntervalUnit };
  startAt: string;
}

const ANCHOR = { year: 2026, month: 1, day: 1 };

const FORMS =
  "`*/N * * * *` (every N minutes), `M * * * *` (hourly), `M H * * *` (daily), `M H * * D` (weekly, D 0-6 from Sunday) or `M H D * *` (monthly, D 1-28)";

/** The IANA zone of a time-zone id of the service's catalogue (`Berlin`) or an IANA name (`Europe/Berlin`). */
export function ianaZoneOf(timeZone: string): string | undefined {
  const entry = TIME_ZONES.find((zone) => zone.id === timeZone || zone.iana === timeZone);
  if (entry !== undefined) return entry.iana;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return timeZone;
  } catch {
    return undefined;
  }
}

/** Minutes the zone is ahead of UTC at an instant. */
function offsetMinutes(zone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
  }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const local = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"));
  return Math.round((local - at.getTime()) / 60_000);
}

/** The instant of a wall-clock time in a zone. */
function instantOf(zone: string, year: number, month: number, day: number, hour: number, minute: number): Date {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const guess = new Date(asUtc - offsetMinutes(zone, new Date(asUtc)) * 60_000);
  return new Date(asUtc - offsetMinutes(zone, guess) * 60_000);
}

function whole(text: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value >= min && value <= max ? value : undefined;
}

type Parsed = { interval: ScheduleTiming["interval"]; hour: number; minute: number; weekday?: number; monthDay?: number };

function parse(cron: string): Parsed | undefined {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) return undefined;
  const [minuteField, hourField, dayField, monthField, weekdayField] = fields as [string, string, string, string, string];
  if (monthField !== "*") return undefined;
  const every = /^\*\/(\d+)$/.exec(minuteField);
  if (every !== null && hourField === "*" && dayField === "*" && weekdayField === "*") {
    const amount = whole(every[1]!, 1, 59);
    return amount === undefined ? undefined : { interval: { amount, unit: "minutes" }, hour: 0, minute: 0 };
  }
  const minute = whole(minuteField, 0, 59);
  if (minute === undefined) return undefined;
  if (hourField === "*") return dayField === "*" && weekdayField === "*" ? { interval: { amount: 1, unit: "hours" }, hour: 0, minute } : undefined;
  const hour = whole(hourField, 0, 23);
  if (hour === undefined) return undefined;
  if (dayField === "*" && weekdayField === "*") return { interval: { amount: 1, unit: "days" }, hour, minute };
  if (dayField === "*") {
    const weekday = whole(weekdayField, 0, 6);
    return weekday === undefined ? undefined : { interval: { amount: 1, unit: "weeks" }, hour, minute, weekday };
  }
  const monthDay = weekdayField === "*" ? whole(dayField, 1, 28) : undefined;
  return monthDay === undefined ? undefined : { interval: { amount: 1, unit: "months" }, hour, minute, monthDay };
}

/** The first day on or after the anchor that the cron names. */
function firstDay(parsed: Parsed): number {
  if (parsed.monthDay !== undefined) return parsed.monthDay;
  if (parsed.weekday === undefined) return ANCHOR.day;
  const anchorWeekday = new Date(Date.UTC(ANCHOR.year, ANCHOR.month - 1, ANCHOR.day)).getUTCDay();
  return ANCHOR.day + ((parsed.weekday - anchorWeekday + 7) % 7);
}

/** The schedule a cron stands for, or the rule it breaks. */
export function timingOfCron(cron: string, timeZone: string): { ok: true; timing: ScheduleTiming } | { ok: false; message: string } {
  const zone = ianaZoneOf(timeZone);
  if (zone === undefined) return { ok: false, message: `timeZone "${timeZone}" is neither a time zone of the service (getTimeZones) nor an IANA name` };
  const parsed = parse(cron);
  if (parsed === undefined) return { ok: false, message: `cron "${cron}" is not a form the service can repeat: use ${FORMS}` };
  const start = instantOf(zone, ANCHOR.year, ANCHOR.month, firstDay(parsed), parsed.hour, parsed.minute);
  return { ok: true, timing: { interval: parsed.interval, startAt: start.toISOString().replace(".000Z", "Z") } };
}
