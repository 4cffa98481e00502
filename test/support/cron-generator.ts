/**
 * Crons as people write them, generated from a fixed seed so every run holds the same set: the
 * macros, names of months and days in any case, day of week 0 to 7, lists, ranges, ranges with
 * steps, `*∕1` and `a/n`, for every shape the service could repeat (minute steps, hour steps,
 * daily, weekly, monthly and yearly times) and for shapes it cannot (weekdays only, two days of a
 * month, office hours, uneven lists). Left out are the spellings cron evaluators read differently
 * or refuse (`0,7` in day of week, a `*∕N` day field beside a restricted one): those are tested
 * on their own.
 */
import { mulberry32 } from "./random";

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const MACROS = ["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"];

export function generatedCrons(seed: number, count: number): string[] {
  const random = mulberry32(seed);
  const int = (from: number, to: number) => from + Math.floor(random() * (to - from + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;
  const anyCase = (text: string) => pick([text, text.toUpperCase(), text[0]!.toUpperCase() + text.slice(1)]);
  const divisorOf = (cycle: number) => pick(Array.from({ length: cycle }, (_, index) => index + 1).filter((step) => cycle % step === 0 && step < cycle));

  /** Values stepped around a cycle from `first`: exact when the step divides the cycle. */
  const stepped = (cycle: number, max: number, step: number) => {
    const first = int(0, step - 1);
    return pick([
      first === 0 ? `*/${step}` : `${first}/${step}`,
      `${first}-${max}/${step}`,
      cycle % step === 0 ? Array.from({ length: cycle / step }, (_, k) => first + k * step).join(",") : `${first}-${max}/${step}`,
    ]);
  };
  const minuteSteps = () => stepped(60, 59, pick([divisorOf(60), int(1, 59)]));
  const hourSteps = () => stepped(24, 23, pick([divisorOf(24), int(2, 12)]));
  const everyDayOfMonth = () => pick(["*", "*", "*/1", "1-31"]);
  const everyWeekday = () => pick(["*", "*", "*/1", "0-6", "1-7", "0-7", `${anyCase("sun")}-${anyCase("sat")}`]);
  const everyMonth = () => pick(["*", "*", "*/1", "1-12", `${anyCase("jan")}-${anyCase("dec")}`]);
  const oneWeekday = () => pick([String(int(0, 7)), anyCase(DAYS[int(0, 6)]!)]);
  const time = () => `${int(0, 59)} ${int(0, 23)}`;
  const monthsStepped = () => {
    const step = pick([1, 2, 3, 4, 6, 12, 5]);
    const first = int(1, Math.min(step, 12));
    const months = Array.from({ length: Math.ceil((13 - first) / step) }, (_, k) => first + k * step).filter((month) => month <= 12);
    return pick([step === 1 ? "*" : `*/${step}`, `${first}-12/${step}`, months.map((month) => anyCase(MONTHS[month - 1]!)).join(","), months.join(",")]);
  };

  // Days of the week and days of the month both given read as "either", so the day of month is `*` when the day of week is restricted.
  const shapes: (() => string)[] = [
    () => anyCase(pick(MACROS)),
    () => `${minuteSteps()} ${pick(["*", "*/1", "0-23", "*", "9-17"])} ${everyDayOfMonth()} ${everyMonth()} ${everyWeekday()}`,
    () =>
      `${pick([String(int(0, 59)), `${int(0, 29)},${int(30, 59)}`])} ${pick([hourSteps(), "*", "*/1", "0-23", `${int(0, 11)},${int(12, 23)}`, "9-17"])} ${everyDayOfMonth()} * ${everyWeekday()}`,
    () => `${time()} ${everyDayOfMonth()} ${everyMonth()} ${everyWeekday()}`,
    () => `${time()} * ${everyMonth()} ${oneWeekday()}`,
    () => `${time()} ${pick([int(1, 28), int(1, 31), int(28, 31)])} ${monthsStepped()} *`,
    () => `${time()} ${pick(["1-5", "1,15", "1-31", `${int(1, 28)}`])} * ${pick([`${anyCase("mon")}-${anyCase("fri")}`, "1-5", oneWeekday(), "0,6"])}`,
    () => `${time()} * ${anyCase(MONTHS[int(0, 11)]!)} ${pick(["*", "1-5"])}`,
  ];
  const crons = new Set<string>();
  while (crons.size < count) crons.add(pick(shapes)());
  return [...crons];
}
