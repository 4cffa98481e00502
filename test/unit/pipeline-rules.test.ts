/**
 * A pipeline's cron made into the service's interval and first run, and the forms and zones it
 * refuses, with the rule named.
 */
import { describe, expect, it } from "vitest";
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
