/**
 * A pipeline's cron made into the service's interval and first run, and the forms and zones it
 * refuses, with the rule named.
 */
import { describe, expect, it } from "vitest";
import { checkPlainInputs } from "../../provider/components/pipeline/children";
import { ianaZoneOf, timingOfCron } from "../../provider/components/pipeline/cron";

const timing = (cron: string, zone = "UTC") => {
  const result = timingOfCron(cron, zone);
  if (!result.ok) throw new Error(result.message);
  return result.timing;
};

describe("a pipeline's cron", () => {
  it.each([
    ["*/15 * * * *", "UTC", { amount: 15, unit: "minutes" }, "2026-01-01T00:00:00Z"],
    ["5 * * * *", "UTC", { amount: 1, unit: "hours" }, "2026-01-01T00:05:00Z"],
    ["*/1 * * * *", "UTC", { amount: 1, unit: "minutes" }, "2026-01-01T00:00:00Z"],
    ["*/30 * * * *", "Europe/Berlin", { amount: 30, unit: "minutes" }, "2025-12-31T23:00:00Z"],
    ["0 6 * * *", "Tokyo", { amount: 1, unit: "days" }, "2025-12-31T21:00:00Z"],
    ["0 6 * * *", "America/Bogota", { amount: 1, unit: "days" }, "2026-01-01T11:00:00Z"],
    ["30 22 * * 0", "Tokyo", { amount: 1, unit: "weeks" }, "2026-01-04T13:30:00Z"],
    ["0 2 15 * *", "UTC", { amount: 1, unit: "months" }, "2026-01-15T02:00:00Z"],
    ["0 3 * * *", "New Delhi", { amount: 1, unit: "days" }, "2025-12-31T21:30:00Z"],
    // Standard spellings: macros, lists, ranges with steps, 7 and names for Sunday, monthly and yearly forms.
    ["@daily", "UTC", { amount: 1, unit: "days" }, "2026-01-01T00:00:00Z"],
    ["@hourly", "Europe/Berlin", { amount: 1, unit: "hours" }, "2025-12-31T23:00:00Z"],
    ["0,30 * * * *", "UTC", { amount: 30, unit: "minutes" }, "2026-01-01T00:00:00Z"],
    ["0-59/20 * * * *", "UTC", { amount: 20, unit: "minutes" }, "2026-01-01T00:00:00Z"],
    ["5/15 * * * *", "UTC", { amount: 15, unit: "minutes" }, "2026-01-01T00:05:00Z"],
    ["0 */6 * * *", "UTC", { amount: 6, unit: "hours" }, "2026-01-01T00:00:00Z"],
    ["0 6,18 * * *", "Asia/Tokyo", { amount: 12, unit: "hours" }, "2025-12-31T21:00:00Z"],
    ["0 6 * * 7", "UTC", { amount: 1, unit: "weeks" }, "2026-01-04T06:00:00Z"],
    ["0 6 * * SUN", "UTC", { amount: 1, unit: "weeks" }, "2026-01-04T06:00:00Z"],
    ["0 6 * * mon", "Asia/Kolkata", { amount: 1, unit: "weeks" }, "2026-01-05T00:30:00Z"],
    ["30 6 * * 0-6", "UTC", { amount: 1, unit: "days" }, "2026-01-01T06:30:00Z"],
    ["0 6 */1 * *", "UTC", { amount: 1, unit: "days" }, "2026-01-01T06:00:00Z"],
    ["@monthly", "Asia/Kolkata", { amount: 1, unit: "months" }, "2025-12-31T18:30:00Z"],
    ["0 0 1 */3 *", "UTC", { amount: 3, unit: "months" }, "2026-01-01T00:00:00Z"],
    ["@yearly", "Asia/Tokyo", { amount: 12, unit: "months" }, "2025-12-31T15:00:00Z"],
    ["0 6 15 JAN *", "Europe/Berlin", { amount: 12, unit: "months" }, "2026-01-15T05:00:00Z"],
    ["0 0 31 1,7 *", "UTC", { amount: 6, unit: "months" }, "2026-01-31T00:00:00Z"],
  ])("%s in %s runs every %o from %s", (cron, zone, interval, startAt) => {
    expect(timing(cron, zone)).toEqual({ interval, startAt });
  });

  it.each([
    ["@daily", "@midnight", "0 0 * * *", "0 0 */1 * *", "0 0 1-31 * 0-6", "00 00 * * *"],
    ["@weekly", "0 0 * * 0", "0 0 * * 7", "0 0 * * sun", "0 0 * * SUN", "0 0 * * 0,7", "0 0 * jan-dec 7"],
    ["@yearly", "@annually", "@ANNUALLY", "0 0 1 1 *", "0 0 1 jan *", "0 0 1 */12 *"],
    ["*/20 * * * *", "0-59/20 * * * *", "0,20,40 * * * *", "0/20 0-23 * * *", "*/20 * * * 1-7"],
  ])("reads every spelling of the same times as the same schedule: %s", (...spellings) => {
    const timings = spellings.map((cron) => [cron, timing(cron, "Asia/Kolkata")]);
    for (const [cron, found] of timings) expect([cron, found]).toEqual([cron, timings[0]![1]]);
  });

  it.each([
    ["0 6 * * 1-5", "runs at 06:00 on Monday, Tuesday, Wednesday, … Friday, which no one interval repeats", "nearest exact: `0 6 * * 1` or `0 6 * * *`"],
    ["0 6 1,15 * *", "runs at 06:00 on day 1 and 15 of the month, which no one interval repeats", "nearest exact: `0 6 1 * *` or `0 6 * * *`"],
    [
      "0 9-17 * * *",
      "runs at 09:00, 10:00, 11:00, … 17:00 each day, which no one interval repeats: an hour step must divide 24",
      "nearest exact: `0 9,21 * * *` or `0 9 * * *`",
    ],
    [
      "0 */5 * * *",
      "(a step starts again each day), which no one interval repeats: an hour step must divide 24",
      "nearest exact: `0 */4 * * *` or `0 */6 * * *`",
    ],
    ["0 6 * jan *", "runs at 06:00 in January, which no one interval repeats", "nearest exact: `0 6 1 1 *` or `0 6 * * *`"],
    ["0 6 31 * *", "cannot run on the 31st there every month: February 2026 has no 31st", "nearest exact: `0 6 28 * *`"],
    ["0 0 1 1,2 *", "runs at 00:00 on day 1 of the month in January and February", "nearest exact: `0 0 1 * *` or `0 0 1 1 *`"],
  ])("refuses %s in UTC, naming the rule and the nearest exact forms", (cron, rule, nearest) => {
    const result = timingOfCron(cron, "UTC");
    expect(result).toMatchObject({ ok: false });
    expect(!result.ok && result.message).toMatch(new RegExp(`^cron "${cron.replace(/[*]/g, "\\*")}" `));
    expect(!result.ok && result.message).toContain(rule);
    expect(!result.ok && result.message).toContain(nearest);
  });

  it.each([
    ["61 * * * *", "its minute 61 is outside 0-59"],
    ["* * * *", "is not cron: give five fields"],
    ["0 6 L * *", 'its day-of-month "l" is not a number'],
    ["0 22-2 * * *", 'its hour range "22-2" runs backwards: write it as two ranges, "22-23,0-2"'],
    ["@reboot", "is not cron: give five fields"],
    ["0 6 */1 * 1", "gives both day fields with a step from `*`, which cron programs read differently"],
  ])("refuses %s, which is not standard cron or reads two ways, naming the rule", (cron, rule) => {
    const result = timingOfCron(cron, "UTC");
    expect(result).toMatchObject({ ok: false });
    expect(!result.ok && result.message).toMatch(new RegExp(`^cron "${cron.replace(/[*]/g, "\\*")}" `));
    expect(!result.ok && result.message).toContain(rule);
  });

  it.each([
    [
      "*/45 * * * *",
      "UTC",
      'runs at minutes 0 and 45 of each hour (a step starts again at each hour), which no one interval repeats: a minute step must divide 60; nearest exact: `*/30 * * * *` or `0 * * * *` (hourly); for every 45 minutes around the clock give interval { amount: 45, unit: "minutes" } in place of cron',
    ],
    [
      "*/7 * * * *",
      "UTC",
      "runs at minutes 0, 7, 14, … 56 of each hour (a step starts again at each hour), which no one interval repeats: a minute step must divide 60; nearest exact: `*/6 * * * *` or `*/10 * * * *`;",
    ],
    [
      "*/25 * * * *",
      "Berlin",
      "runs at minutes 0, 25 and 50 of each hour (a step starts again at each hour), which no one interval repeats: a minute step must divide 60; nearest exact: `*/20 * * * *` or `*/30 * * * *`;",
    ],
    ["*/59 * * * *", "UTC", "nearest exact: `*/30 * * * *` or `0 * * * *` (hourly);"],
    ["*/0 * * * *", "UTC", "has a minute step out of cron's range 1 to 59"],
    ["*/60 * * * *", "UTC", "has a minute step out of cron's range 1 to 59: every hour is `0 * * * *`"],
    [
      "*/90 * * * *",
      "UTC",
      'has a minute step out of cron\'s range 1 to 59: every hour is `0 * * * *`; for every 90 minutes give interval { amount: 90, unit: "minutes" } in place of cron',
    ],
    [
      "*/20 * * * *",
      "Australia/Lord_Howe",
      "in Australia/Lord_Howe cannot run at minutes 0, 20 and 40 of each hour there all year: the service repeats one interval in UTC, and the clock there moves between UTC+10:30 and UTC+11:00; a step there must divide 30 minutes; nearest exact: `*/15 * * * *` or `*/30 * * * *`",
    ],
    [
      "5 * * * *",
      "Australia/Lord_Howe",
      "in Australia/Lord_Howe cannot run at minute 5 of each hour there all year: the service repeats one interval in UTC, and the clock there moves between UTC+10:30 and UTC+11:00; a step there must divide 30 minutes; nearest exact: `5,35 * * * *`; exact instead: `5 * * * *` in UTC, which there is minute 35 at UTC+10:30 and minute 5 at UTC+11:00, or a time zone that keeps one offset",
    ],
    [
      "0 6 * * *",
      "Berlin",
      "in Europe/Berlin cannot run at 06:00 there all year: the service repeats one interval in UTC, and the clock there moves between UTC+01:00 and UTC+02:00; exact instead: `0 5 * * *` in UTC, which there is 06:00 at UTC+01:00 and 07:00 at UTC+02:00, or a time zone that keeps one offset",
    ],
    ["30 0 * * 1", "Europe/Berlin", "exact instead: `30 23 * * 0` in UTC, which there is 00:30 at UTC+01:00 and 01:30 at UTC+02:00, or a time zone"],
    ["0 6 * * *", "Australia/Sydney", "exact instead: `0 19 * * *` in UTC, which there is 05:00 at UTC+10:00 and 06:00 at UTC+11:00, or a time zone"],
    ["0 0 1 * *", "Europe/Berlin", "moves between UTC+01:00 and UTC+02:00; exact instead: a time zone that keeps one offset"],
    [
      "0 22 28 * *",
      "America/Bogota",
      "in America/Bogota cannot run on the 28th there every month: 22:00 there is the 29th in UTC, where the service counts months from its first run, so in February 2026 it would run at 22:00 on 27 February there; nearest exact: `0 22 27 * *` or `0 18 28 * *`",
    ],
    [
      "0 0 1 3 *",
      "Asia/Kolkata",
      "in Asia/Kolkata cannot run on the 1st there every March: 00:00 there is the 28th in UTC, where the service counts months from its first run, so in March 2028 it would run at 00:00 on 29 February there; nearest exact: `0 6 1 3 *`",
    ],
  ])("refuses %s in %s, whose times one interval would not keep, with the rule and the exact forms nearest", (cron, zone, message) => {
    const result = timingOfCron(cron, zone);
    expect(result).toMatchObject({ ok: false });
    expect(!result.ok && result.message).toMatch(new RegExp(`^cron "${cron.replace(/[*]/g, "\\*")}" `));
    expect(!result.ok && result.message).toContain(message);
  });

  it("takes every form a refusal names as exact, in the zone it names", () => {
    const refused = [
      ["*/45 * * * *", "UTC"],
      ["*/7 * * * *", "Asia/Kolkata"],
      ["*/45 * * * *", "Australia/Lord_Howe"],
      ["*/20 * * * *", "Australia/Lord_Howe"],
      ["5 * * * *", "Australia/Lord_Howe"],
      ["30 0 * * 1", "Europe/Berlin"],
      ["15 12 * * *", "America/New_York"],
      ["0 2 15 * *", "Australia/Sydney"],
      ["0 6 * * 1-5", "Asia/Kolkata"],
      ["0 */5 * * *", "UTC"],
      ["0 22 28 * *", "America/Bogota"],
      ["0 0 1 3 *", "Asia/Kolkata"],
      ["0 6 31 * *", "UTC"],
      ["0 6,18 * * *", "Europe/Berlin"],
    ];
    const named = refused.flatMap(([cron, zone]) => {
      const result = timingOfCron(cron!, zone!);
      if (result.ok) throw new Error(`${cron} in ${zone} was taken`);
      return [...result.message.matchAll(/`([^`]+)`( in UTC)?/g)].map((match) => [match[1]!, match[2] === undefined ? zone! : "UTC"]);
    });
    expect(named.length).toBeGreaterThanOrEqual(refused.length);
    for (const [cron, zone] of named) expect([cron, zone, timingOfCron(cron!, zone!).ok]).toEqual([cron, zone, true]);
  });

  it("takes the service's time-zone ids and IANA names, and refuses others", () => {
    expect(ianaZoneOf("Pacific Time (US & Canada)")).toBe("America/Los_Angeles");
    expect(ianaZoneOf("Europe/Lisbon")).toBe("Europe/Lisbon");
    expect(timingOfCron("0 6 * * *", "Mars/Olympus")).toEqual({
      ok: false,
      message: 'timeZone "Mars/Olympus" is neither a time zone of the service (getTimeZones) nor an IANA name',
    });
  });
});

describe("a pipeline's inputs given as plain values", () => {
  const schedule = { cron: "0 6 * * *" };
  const failureOf = (args: Record<string, unknown>) => {
    try {
      checkPlainInputs("orders", args as never);
    } catch (error) {
      return (error as Error).message;
    }
    return undefined;
  };

  it.each([
    [{ schedule }, 'Pipeline "orders": name is required'],
    [{ name: "o", schedule, cluster: { nodes: 500 } }, 'Pipeline "orders": cluster.nodes must be at most 100, got 500'],
    [{ name: "o", schedule: { cron: "0 6 * * *", interval: { amount: 1, unit: "days" } } }, 'Pipeline "orders": schedule must give one of cron and interval'],
    [
      { name: "o", schedule: { interval: { amount: 1, unit: "days" }, timeZone: "UTC" } },
      'Pipeline "orders": schedule.timeZone is for a cron: an interval starts at startAt',
    ],
    [
      { name: "o", schedule, alertHookId: 7, failureAlert: { type: "web", settings: { url: "https://a.example.com" } } },
      'Pipeline "orders": give failureAlert (a hook the pipeline declares) or alertHookId (an existing hook), not both',
    ],
    [
      { name: "o", schedule, flow: { components: [], edges: [] }, template: { id: 1, sourceConnectionId: 301, destinationConnectionId: 302 } },
      'Pipeline "orders": give flow (the package\'s own) or template (a template and its connections), not both',
    ],
    [{ name: "o", schedule, template: { id: 1, sourceConnectionId: 301 } }, 'Pipeline "orders": template.destinationConnectionId is required'],
    // Its children's names ("<name> failures", "<name> delivery") must fit the service's 255.
    [{ name: "o".repeat(247), schedule }, 'Pipeline "orders": name must have at most 246 characters'],
    [{ name: "o", schedule, colour: "red" }, 'Pipeline "orders": colour is not an input of this resource'],
    [
      { name: "o", schedule: { cron: "*/45 * * * *" } },
      'Pipeline "orders": schedule.cron "*/45 * * * *" runs at minutes 0 and 45 of each hour (a step starts again at each hour), which no one interval repeats: a minute step must divide 60; nearest exact: `*/30 * * * *` or `0 * * * *` (hourly); for every 45 minutes around the clock give interval { amount: 45, unit: "minutes" } in place of cron',
    ],
  ])("%j is refused: %s", (args, message) => {
    expect(failureOf(args)).toBe(message);
  });

  it("takes a whole pipeline given as plain values", () => {
    expect(failureOf({ name: "o", schedule, cluster: { nodes: 4, reuse: "self" }, alertHookId: "7", delivery: undefined })).toBeUndefined();
  });
});
