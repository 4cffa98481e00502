/**
 * A cron as the values of its five fields, whatever the spelling: a macro (`@daily`), names of
 * months and days (`JAN`, `sun`, any case), day of week 7 for Sunday, lists, ranges and steps
 * (`*∕1`, `0-59/20`, `5/15`). Whether the service can run it is decided on these values alone, so
 * two spellings of the same times are always both taken or both refused.
 */

/** The values of a cron's fields, sorted; `eitherDay` when a day may match day of month or day of week (both fields restricted). */
export interface CronSets {
  minutes: number[];
  hours: number[];
  monthDays: number[];
  months: number[];
  weekdays: number[];
  eitherDay: boolean;
}

type FieldSpec = { name: string; min: number; max: number; names?: readonly string[] };

const FIELDS: readonly FieldSpec[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day-of-month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12, names: ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"] },
  // 7 is Sunday as well as 0, as every cron takes it.
  { name: "day-of-week", min: 0, max: 7, names: ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] },
];

const MACROS: Readonly<Record<string, string>> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};

export const CRON_SPELLINGS =
  "five fields (minute hour day-of-month month day-of-week) of numbers, names (`jan`, `mon`), `*`, lists, ranges and steps, or @hourly, @daily, @midnight, @weekly, @monthly, @yearly or @annually";

class CronSyntaxError extends Error {}

const range = (from: number, to: number, step = 1) => Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, index) => from + index * step);

function fieldValue(text: string, field: FieldSpec): number {
  const named = field.names?.indexOf(text) ?? -1;
  if (named >= 0) return named + (field.name === "month" ? 1 : 0);
  if (!/^\d+$/.test(text)) throw new CronSyntaxError(`its ${field.name} "${text}" is not a number${field.names === undefined ? "" : " or a name"}`);
  const value = Number(text);
  if (value < field.min || value > field.max) throw new CronSyntaxError(`its ${field.name} ${value} is outside ${field.min}-${field.max}`);
  return value;
}

/**
 * A step up to the number of a field's values (`*∕12` of months is January alone). A minute step
 * of 60 or more is minute 0 alone in cron: more likely a mistake for a longer interval than meant.
 */
function stepOf(text: string, field: FieldSpec, cron: string): number {
  const step = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  const largest = field.name === "day-of-week" ? 7 : field.name === "minute" ? 59 : field.max - field.min + 1;
  if (step >= 1 && step <= largest) return step;
  if (field.name !== "minute" || Number.isNaN(step)) throw new CronSyntaxError(`its ${field.name} step "${text}" is out of cron's range 1 to ${largest}`);
  const hourly = step >= 60 ? ": every hour is `0 * * * *`" : "";
  const longer = step > 60 ? `; for every ${step} minutes give interval { amount: ${step}, unit: "minutes" } in place of cron` : "";
  throw new CronSyntaxError(`cron "${cron}" has a minute step out of cron's range 1 to 59${hourly}${longer}`);
}

function itemValues(item: string, field: FieldSpec, cron: string): number[] {
  const [span, stepText, extra] = item.split("/");
  if (extra !== undefined || span === undefined || span === "") throw new CronSyntaxError(`its ${field.name} "${item}" is not a value, range or step`);
  const step = stepText === undefined ? 1 : stepOf(stepText, field, cron);
  if (span === "*") return range(field.min, field.max, step);
  const [fromText, toText, more] = span.split("-");
  if (more !== undefined) throw new CronSyntaxError(`its ${field.name} "${item}" is not a value, range or step`);
  const from = fieldValue(fromText!, field);
  // `5/15` is from 5 to the field's end, as cron reads it.
  const to = toText !== undefined ? fieldValue(toText, field) : stepText === undefined ? from : field.max;
  if (to < from)
    throw new CronSyntaxError(`its ${field.name} range "${item}" runs backwards: write it as two ranges, "${fromText}-${field.max},${field.min}-${toText}"`);
  return range(from, to, step);
}

function fieldValues(text: string, field: FieldSpec, cron: string): number[] {
  const values = text.split(",").flatMap((item) => itemValues(item, field, cron));
  const folded = field.name === "day-of-week" ? values.map((day) => day % 7) : values;
  return [...new Set(folded)].sort((a, b) => a - b);
}

/** A `*∕N` day field beside a restricted one is read as "both match" by some crons and "either matches" by others. */
function ambiguousDays(dayField: string, otherField: string, sets: CronSets): boolean {
  return dayField.startsWith("*/") && otherField !== "*" && !(sets.monthDays.length === 31 && sets.weekdays.length === 7);
}

/** The values of a cron's fields, or why it is not cron. */
export function cronSets(cron: string): { ok: true; sets: CronSets } | { ok: false; message: string } {
  const text = cron.trim().toLowerCase();
  const expanded = text.startsWith("@") ? MACROS[text] : text;
  const fields = expanded?.split(/\s+/) ?? [];
  if (fields.length !== 5) return { ok: false, message: `cron "${cron}" is not cron: give ${CRON_SPELLINGS}` };
  try {
    const [minutes, hours, monthDays, months, weekdays] = FIELDS.map((field, index) => fieldValues(fields[index]!, field, cron)) as [
      number[],
      number[],
      number[],
      number[],
      number[],
    ];
    const [dayField, , weekdayField] = fields.slice(2) as [string, string, string];
    const sets = { minutes, hours, monthDays, months, weekdays, eitherDay: !dayField.startsWith("*") && !weekdayField.startsWith("*") };
    if (ambiguousDays(dayField, weekdayField, sets) || ambiguousDays(weekdayField, dayField, sets))
      return {
        ok: false,
        message: `cron "${cron}" gives both day fields with a step from \`*\`, which cron programs read differently (a day matching both, or either): write \`*\` in the one that should not restrict the days`,
      };
    return { ok: true, sets };
  } catch (error) {
    if (!(error instanceof CronSyntaxError)) throw error;
    return { ok: false, message: error.message.startsWith("cron ") ? error.message : `cron "${cron}" is not cron: ${error.message}; give ${CRON_SPELLINGS}` };
  }
}
