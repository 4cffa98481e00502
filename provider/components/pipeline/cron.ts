/**
 * A pipeline's schedule written as cron, made into what the service's schedules take: an interval
 * and the time of a first run. Any spelling of cron is read as its fields' values first
 * (cron-fields.ts), so one rule decides: the cron is taken when its runs are one interval
 * (cron-shape.ts) that the service, repeating it in UTC, keeps at every run in the zone
 * (cron-exact.ts); otherwise it is refused with the nearest forms that are (cron-refusal.ts). The
 * first run is the first such time on or after 2026-01-01 in that zone, a fixed anchor, so the
 * same cron always gives the same schedule and a preview shows no change.
 */
import { TIME_ZONES } from "../../../contract/catalogues";
import type { Interval } from "./cron-exact";
import { cronSets } from "./cron-fields";
import { readingOf } from "./cron-reading";
import { refusalOf } from "./cron-refusal";

export interface ScheduleTiming {
  interval: Interval;
  startAt: string;
}

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

/** `2026-01-01T05:00:00Z`: whole seconds, as the service writes them. */
export function isoSeconds(at: Date): string {
  return at.toISOString().replace(".000Z", "Z");
}

type Refusal = { ok: false; message: string };

/** The schedule a cron stands for, or the rule it breaks; `now` starts the years whose clock changes are weighed. */
export function timingOfCron(cron: string, timeZone: string, now = Date.now()): { ok: true; timing: ScheduleTiming } | Refusal {
  const zone = ianaZoneOf(timeZone);
  if (zone === undefined) return { ok: false, message: `timeZone "${timeZone}" is neither a time zone of the service (getTimeZones) nor an IANA name` };
  const parsed = cronSets(cron);
  if (!parsed.ok) return parsed;
  const reading = readingOf(parsed.sets, zone, now);
  if (!("start" in reading) || reading.inexact !== undefined) return { ok: false, message: refusalOf(cron, parsed.sets, zone, reading, now) };
  return { ok: true, timing: { interval: reading.interval, startAt: isoSeconds(reading.start) } };
}
