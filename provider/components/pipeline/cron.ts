/**
 * A pipeline's schedule written as cron, made into what the service's schedules take: an interval
 * and the time of a first run. The service repeats a fixed interval, so only the cron forms that
 * are one are taken: every N minutes, hourly, daily, weekly and monthly, at a time of day in a
 * time zone. The first run is the first such time on or after 2026-01-01 in that zone, a fixed
 * anchor, so the same cron always gives the same schedule and a preview shows no change. A form
 * whose times the interval would not keep (cron-exact.ts) is refused rather than sent.
 */
import { TIME_ZONES } from "../../../contract/catalogues";
import type { ScheduleIntervalUnit } from "../../../contract/vocabularies";
import { type CronForm, inexactness } from "./cron-exact";
import { instantOf } from "./zone-offsets";

export interface ScheduleTiming {
  interval: { amount: number; unit: ScheduleIntervalUnit };
  startAt: string;
}

const ANCHOR = { year: 2026, month: 1, day: 1 };

const FORMS =
  "`*/N * * * *` (every N minutes, N dividing 60), `M * * * *` (hourly), `M H * * *` (daily), `M H * * D` (weekly, D 0-6 from Sunday) or `M H D * *` (monthly, D 1-28)";

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

function whole(text: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value >= min && value <= max ? value : undefined;
}

/** A minute step of 60 or more is minute 0 alone in cron, and a step of 0 is no time at all. */
function stepOutOfRange(cron: string, step: number): string {
  const hourly = step >= 60 ? ": every hour is `0 * * * *`" : "";
  const longer = step > 60 ? `; for every ${step} minutes give interval { amount: ${step}, unit: "minutes" } in place of cron` : "";
  return `cron "${cron}" has a minute step out of cron's range 1 to 59${hourly}${longer}`;
}

function formOf(cron: string): CronForm | string | undefined {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) return undefined;
  const [minuteField, hourField, dayField, monthField, weekdayField] = fields as [string, string, string, string, string];
  if (monthField !== "*") return undefined;
  const every = /^\*\/(\d+)$/.exec(minuteField);
  if (every !== null && hourField === "*" && dayField === "*" && weekdayField === "*") {
    const amount = Number(every[1]);
    return amount >= 1 && amount <= 59 ? { interval: { amount, unit: "minutes" }, hour: 0, minute: 0 } : stepOutOfRange(cron, amount);
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
function firstDay(form: CronForm): number {
  if (form.monthDay !== undefined) return form.monthDay;
  if (form.weekday === undefined) return ANCHOR.day;
  const anchorWeekday = new Date(Date.UTC(ANCHOR.year, ANCHOR.month - 1, ANCHOR.day)).getUTCDay();
  return ANCHOR.day + ((form.weekday - anchorWeekday + 7) % 7);
}

type Refusal = { ok: false; message: string };

/**
 * The one interval a cron's form reads as, from its first time on or after the anchor, before
 * asking whether that interval keeps the cron's times; or the rule the cron breaks.
 */
export function cronReading(cron: string, timeZone: string): { ok: true; zone: string; form: CronForm; start: Date } | Refusal {
  const zone = ianaZoneOf(timeZone);
  if (zone === undefined) return { ok: false, message: `timeZone "${timeZone}" is neither a time zone of the service (getTimeZones) nor an IANA name` };
  const form = formOf(cron);
  if (form === undefined) return { ok: false, message: `cron "${cron}" is not a form the service can repeat: use ${FORMS}` };
  if (typeof form === "string") return { ok: false, message: form };
  return { ok: true, zone, form, start: instantOf(zone, ANCHOR.year, ANCHOR.month, firstDay(form), form.hour, form.minute) };
}

/** `2026-01-01T05:00:00Z`: whole seconds, as the service writes them. */
export function isoSeconds(at: Date): string {
  return at.toISOString().replace(".000Z", "Z");
}

/** The schedule a cron stands for, or the rule it breaks; `now` starts the year whose clock changes are weighed. */
export function timingOfCron(cron: string, timeZone: string, now = Date.now()): { ok: true; timing: ScheduleTiming } | Refusal {
  const reading = cronReading(cron, timeZone);
  if (!reading.ok) return reading;
  const inexact = inexactness(cron, reading, now);
  if (inexact !== undefined) return { ok: false, message: inexact };
  return { ok: true, timing: { interval: reading.form.interval, startAt: isoSeconds(reading.start) } };
}
