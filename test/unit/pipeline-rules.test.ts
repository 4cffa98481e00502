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
    ["0 6 * * *", "Berlin", { amount: 1, unit: "days" }, "2026-01-01T05:00:00Z"],
    ["0 6 * * *", "America/New_York", { amount: 1, unit: "days" }, "2026-01-01T11:00:00Z"],
    ["30 22 * * 0", "Tokyo", { amount: 1, unit: "weeks" }, "2026-01-04T13:30:00Z"],
    ["0 2 15 * *", "UTC", { amount: 1, unit: "months" }, "2026-01-15T02:00:00Z"],
    ["0 3 * * *", "New Delhi", { amount: 1, unit: "days" }, "2025-12-31T21:30:00Z"],
  ])("%s in %s runs every %o from %s", (cron, zone, interval, startAt) => {
    expect(timing(cron, zone)).toEqual({ interval, startAt });
  });

  it.each(["0 6 1 1 *", "0 6 * * 1-5", "0 6,18 * * *", "0 6 31 * *", "61 * * * *", "* * * *", "@daily"])("refuses %s, naming the forms it takes", (cron) => {
    const result = timingOfCron(cron, "UTC");
    expect(result).toMatchObject({ ok: false });
    expect(!result.ok && result.message).toMatch(
      new RegExp(`^cron "${cron.replace(/[*]/g, "\\*")}" is not a form the service can repeat: use .*M H \\* \\* \\*`),
    );
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
  ])("%j is refused: %s", (args, message) => {
    expect(failureOf(args)).toBe(message);
  });

  it("takes a whole pipeline given as plain values", () => {
    expect(failureOf({ name: "o", schedule, cluster: { nodes: 4, reuse: "self" }, alertHookId: "7", delivery: undefined })).toBeUndefined();
  });
});
