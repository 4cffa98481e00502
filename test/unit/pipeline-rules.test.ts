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
  ])("%s in %s runs every %o from %s", (cron, zone, interval, startAt) => {
    expect(timing(cron, zone)).toEqual({ interval, startAt });
  });

  it.each([
    "0 6 1 1 *",
    "0 6 * * 1-5",
    "0 6,18 * * *",
    "0 6 31 * *",
    "61 * * * *",
    "* * * *",
    "@daily",
    "0 */5 * * *",
    "0 */6 * * *",
    "5/15 * * * *",
    "0-59/15 * * * *",
  ])("refuses %s, naming the forms it takes", (cron) => {
    const result = timingOfCron(cron, "UTC");
    expect(result).toMatchObject({ ok: false });
    expect(!result.ok && result.message).toMatch(
      new RegExp(`^cron "${cron.replace(/[*]/g, "\\*")}" is not a form the service can repeat: use .*M H \\* \\* \\*`),
    );
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
      "in Australia/Lord_Howe cannot run at minutes 0, 20 and 40 of each hour there all year: the service repeats one interval in UTC, and the clock there moves between UTC+10:30 and UTC+11:00; a minute step there must divide 30; nearest exact: `*/15 * * * *` or `*/30 * * * *`",
    ],
    [
      "5 * * * *",
      "Australia/Lord_Howe",
      "in Australia/Lord_Howe cannot run at minute 5 of each hour there all year: the service repeats one interval in UTC, and the clock there moves between UTC+10:30 and UTC+11:00; exact instead: `5 * * * *` in UTC, which there is minute 35 at UTC+10:30 and minute 5 at UTC+11:00, or a time zone that keeps one offset",
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
      "in America/Bogota cannot run on the 28th there every month: 22:00 there is already the 29th in UTC, where the service counts months, so in a February of 28 days it would run on the 27th there; exact instead: a day from 1 to 27, or a time before 19:00 on the 28th",
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
