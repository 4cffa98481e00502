import { describe, expect, it } from "vitest";
import { firstRunFrom } from "../../../emulator/areas/schedules/timing";
import { closedAfterEach, startTestEmulator } from "../helpers";
import { scheduleBody, scheduleCalls, scheduleFixtures } from "./helpers";

/** Run times of schedules counted in calendar months, the one unit of varying length. */

const track = closedAfterEach();

describe("monthly schedules", () => {
  const clock = (speed: number) => ({ duration: (seconds: number) => (seconds * 1000) / speed });
  const monthly = { startAt: "2028-01-31T06:00:00.000Z", intervalAmount: 1, intervalUnit: "months" as const };
  const runAfter = (iso: string, speed = 1) => new Date(firstRunFrom(monthly, clock(speed), Date.parse(iso) + 1)!).toISOString();

  it("run on the same day each month, or the last day of a shorter month, never drifting", () => {
    expect(runAfter("2028-01-31T06:00:00Z")).toBe("2028-02-29T06:00:00.000Z");
    expect(runAfter("2028-02-29T06:00:00Z")).toBe("2028-03-31T06:00:00.000Z");
    expect(runAfter("2028-04-01T00:00:00Z")).toBe("2028-04-30T06:00:00.000Z");
    expect(runAfter("2029-01-31T06:00:00Z")).toBe("2029-02-28T06:00:00.000Z");
    expect(firstRunFrom({ ...monthly, intervalAmount: 3 }, clock(1), Date.parse("2028-02-01T00:00:00Z"))).toBe(Date.parse("2028-04-30T06:00:00Z"));
  });

  it("come N times sooner at --speed N, counted from start_at", () => {
    // A month after January 31 is February 29, 29 days later: 2,505.6 s at speed 1000.
    expect(runAfter("2028-01-31T06:00:00Z", 1000)).toBe("2028-01-31T06:41:45.600Z");
  });

  it("start from the first run time from now on when start_at is long past", async () => {
    const emulator = track(await startTestEmulator(scheduleFixtures()));
    const created = await scheduleCalls(emulator).create(scheduleBody({ status: "enabled", start_at: "2020-01-31T06:00:00Z", interval_unit: "months" }));
    const next = new Date(created.next_run_at);
    const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
    expect(next.getUTCDate()).toBe(Math.min(31, lastDay));
    expect(next.getUTCHours()).toBe(6);
    expect(next.getTime()).toBeGreaterThan(Date.now() - 1000);
    expect(next.getTime() - Date.now()).toBeLessThan(32 * 86_400_000);
    expect(created.execution_count).toBe(0);
  });

  it("never come when the next one would fall after the last representable date", () => {
    expect(firstRunFrom({ ...monthly, intervalAmount: 2_000_000_000 }, clock(1), Date.parse("2028-02-01T00:00:00Z"))).toBeUndefined();
    expect(firstRunFrom({ ...monthly, intervalUnit: "weeks", intervalAmount: 1e12 }, clock(1), Date.parse("2028-02-01T00:00:00Z"))).toBeUndefined();
  });
});
