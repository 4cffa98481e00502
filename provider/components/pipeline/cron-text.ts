/**
 * Crons and times written back for a message: the shortest usual spelling of a field's values,
 * and a day's run times as a person reads them.
 */
import type { CronSets } from "./cron-fields";

export const HOUR = 60;
export const DAY = 24 * HOUR;

const two = (value: number) => String(value).padStart(2, "0");
export const clockTime = (minuteOfDay: number) => `${two(Math.floor(minuteOfDay / HOUR))}:${two(minuteOfDay % HOUR)}`;
export const modulo = (value: number, by: number) => ((value % by) + by) % by;

export function listed(items: readonly string[]): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** A few of many values: `0, 7, 14, … 56`. */
export function someOf(values: readonly (number | string)[]): string {
  const texts = values.map(String);
  return texts.length <= 4 ? listed(texts) : `${texts.slice(0, 3).join(", ")}, … ${texts.at(-1)}`;
}

/** `*`, `*∕15`, `5-59/15`, `9-17` or a list. */
export function fieldText(values: readonly number[], min: number, max: number): string {
  const first = values[0]!;
  if (values.length === max - min + 1) return "*";
  if (values.length === 1) return String(first);
  const step = values[1]! - first;
  const stepped = values.every((value, index) => value === first + index * step);
  if (stepped && step === 1) return `${first}-${values.at(-1)}`;
  if (stepped && values.at(-1)! + step > max) return first === min ? `*/${step}` : values.length <= 4 ? values.join(",") : `${first}-${max}/${step}`;
  return values.join(",");
}

/** The cron of a set of values, as short as cron spells it. */
export function cronText(sets: CronSets): string {
  return [
    fieldText(sets.minutes, 0, 59),
    fieldText(sets.hours, 0, 23),
    fieldText(sets.monthDays, 1, 31),
    fieldText(sets.months, 1, 12),
    fieldText(sets.weekdays, 0, 6),
  ].join(" ");
}

/** Every day's times of a set of minutes of the day, as cron fields: possible when they are minutes × hours. */
export function timesSets(times: readonly number[]): Pick<CronSets, "minutes" | "hours"> | undefined {
  const minutes = [...new Set(times.map((time) => time % HOUR))].sort((a, b) => a - b);
  const hours = [...new Set(times.map((time) => Math.floor(time / HOUR)))].sort((a, b) => a - b);
  return minutes.length * hours.length === times.length ? { minutes, hours } : undefined;
}

export const EVERY_DAY = {
  monthDays: Array.from({ length: 31 }, (_, day) => day + 1),
  months: Array.from({ length: 12 }, (_, month) => month + 1),
  weekdays: [0, 1, 2, 3, 4, 5, 6],
};

/** `minutes 0, 20 and 40 of each hour`, `minute 5 of each hour`, `06:00`, `00:00, 04:00, … 20:00`. */
export function timesText(times: readonly number[], short = false): string {
  const sets = timesSets(times);
  if (sets !== undefined && sets.hours.length === 24) {
    const each = short ? "" : " of each hour";
    return sets.minutes.length === 1 ? `minute ${sets.minutes[0]}${each}` : `minutes ${someOf(sets.minutes)}${each}`;
  }
  return someOf(times.map(clockTime));
}

/** `1 minute`, `30 minutes`, `2 hours`, `1 day`. */
export function stepText(minutes: number): string {
  const [amount, unit] = minutes % DAY === 0 ? [minutes / DAY, "day"] : minutes % HOUR === 0 ? [minutes / HOUR, "hour"] : [minutes, "minute"];
  return `${amount} ${unit}${amount === 1 ? "" : "s"}`;
}
