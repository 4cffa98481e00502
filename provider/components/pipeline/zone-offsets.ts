/**
 * A time zone's offset from UTC, read from the runtime's time-zone database: what a cron's
 * wall-clock times are in UTC, and which offsets a zone moves between (summer time), since the
 * service repeats a schedule's interval in UTC and does not follow them.
 */

const DAY_MS = 86_400_000;

/** Days sampled after the later of the first run and now: a year holds every change a zone makes each year. */
const SAMPLED_DAYS = 366;

/** A zone's formatter, kept: making one costs more than the many times a cron's runs are read with it. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (format === undefined) {
    format = newFormatter(zone);
    formatters.set(zone, format);
  }
  return format;
}

function newFormatter(zone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
  });
}

/** Minutes the zone is ahead of UTC at an instant. */
function offsetWith(format: Intl.DateTimeFormat, at: number): number {
  const parts = format.formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const local = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"));
  return Math.round((local - Math.floor(at / 60_000) * 60_000) / 60_000);
}

/** The instant of a wall-clock time in a zone. */
export function instantOf(zone: string, year: number, month: number, day: number, hour: number, minute: number): Date {
  const format = formatterOf(zone);
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const guess = asUtc - offsetWith(format, asUtc) * 60_000;
  return new Date(asUtc - offsetWith(format, guess) * 60_000);
}

/** Minutes the zone is ahead of UTC at an instant. */
export function offsetAt(zone: string, at: Date): number {
  return offsetWith(formatterOf(zone), at.getTime());
}

/**
 * The offsets (minutes ahead of UTC) the zone has at the first run and on each day of the year
 * from the later of the first run and `now`: the ones a schedule that started then meets.
 */
export function offsetsMet(zone: string, first: Date, now: number): number[] {
  const format = formatterOf(zone);
  const from = Math.max(first.getTime(), now);
  const offsets = new Set([offsetWith(format, first.getTime()), ...offsetsOfYear(zone, format, from)]);
  return [...offsets].sort((a, b) => a - b);
}

/** A zone's offsets in a year, sampled daily; kept, as a preview asks again for each cron in the zone. */
const yearsSampled = new Map<string, number[]>();

function offsetsOfYear(zone: string, format: Intl.DateTimeFormat, from: number): number[] {
  const firstDay = Math.floor(from / DAY_MS) * DAY_MS;
  const key = `${zone} ${firstDay}`;
  let offsets = yearsSampled.get(key);
  if (offsets === undefined) {
    offsets = [...new Set(Array.from({ length: SAMPLED_DAYS + 1 }, (_, day) => offsetWith(format, firstDay + day * DAY_MS)))];
    yearsSampled.set(key, offsets);
  }
  return offsets;
}

/** `UTC+05:30`, `UTC-05:00`. */
export function utcOffsetText(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const whole = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(whole / 60)).padStart(2, "0")}:${String(whole % 60).padStart(2, "0")}`;
}
