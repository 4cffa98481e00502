/** Schedule's check and diff: pure rules, no API call. */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { STDOUT_REPORTER, type Reporter } from "../../../provider/progress";
import { tableOperations, stringLiteral, type ScheduleInputs, type ScheduleOutputs } from "../../../provider/resources/schedule/fields";
import { scheduleImplementation } from "../../../provider/resources/schedule/implementation";
import { expectedFailure } from "../check-failure";

const check = (news: Record<string, unknown>) => scheduleImplementation.check({}, news, STDOUT_REPORTER);
const NIGHTLY = { name: "nightly", interval: { amount: 1, unit: "days" }, task: { packages: [{ packageId: "101" }] } };

describe("Schedule check", () => {
  it("fills the task's defaults and reads ids and times as the service writes them", async () => {
    const result = await check({ ...NIGHTLY, startAt: "2026-12-01T03:00:00+01:00" });
    expect(result).toMatchObject({
      ok: true,
      inputs: {
        startAt: "2026-12-01T02:00:00.000Z",
        task: { nodes: 2, terminateOnIdle: true, timeToIdle: 60, packages: [{ packageId: 101, variables: {} }] },
      },
    });
  });

  it.each<[Record<string, unknown>, string, string]>([
    [{ ...NIGHTLY, interval: { amount: 0, unit: "days" } }, "interval.amount", "interval.amount must be at least 1"],
    [
      { ...NIGHTLY, interval: { amount: 1, unit: "fortnights" } },
      "interval.unit",
      'interval.unit must be one of "minutes", "hours", "days", "weeks", "months"',
    ],
    [{ ...NIGHTLY, interval: { amount: 1 } }, "interval.unit", "interval.unit is required"],
    [{ ...NIGHTLY, autoRetryAttempts: 6 }, "autoRetryAttempts", "autoRetryAttempts must be at most 5"],
    [{ ...NIGHTLY, reuseClusterStrategy: "mine" }, "reuseClusterStrategy", 'reuseClusterStrategy must be one of "any", "self", "none"'],
    [{ ...NIGHTLY, task: { packages: [] } }, "task.packages", "task.packages must have at least 1 item(s)"],
    [{ ...NIGHTLY, task: { packages: [{ packageId: "pkg" }] } }, "task.packages.0.packageId", "task.packages.0.packageId must be a positive integer"],
    [{ ...NIGHTLY, task: { packages: [{ packageId: 101, variables: { day: 1 } }] } }, "task.packages.0.variables.day", "must be a string"],
    [{ ...NIGHTLY, startAt: "tomorrow" }, "startAt", "startAt must be an ISO 8601 date-time"],
    [{ name: "n", task: NIGHTLY.task }, "interval", "interval is required"],
  ])("fails %j on %s", async (inputs, property, reason) => {
    const result = await check(inputs);
    expect(!result.ok && result.failures).toContainEqual(expectedFailure(inputs, property, reason));
  });

  it("passes values not known yet, such as another resource's id", async () => {
    const unknown = pulumi.runtime.unknownValue;
    expect(await check({ ...NIGHTLY, task: { packages: [{ packageId: unknown }] } })).toMatchObject({ ok: true });
  });
});

describe("Schedule bodies and diff", () => {
  const inputs = tableOperations.inputSchema.parse(NIGHTLY) as ScheduleInputs;

  it("sends the schedule enabled, the interval as its two fields and the task as the service names it", () => {
    expect(tableOperations.createBody(inputs)).toEqual({
      name: "nightly",
      status: "enabled",
      interval_amount: 1,
      interval_unit: "days",
      task: { nodes: 2, terminate_on_idle: true, time_to_idle: 60, packages: [{ package_id: 101, variables: {} }] },
    });
  });

  const olds = {
    name: "nightly",
    description: "",
    enabled: true,
    startAt: "2026-12-01T02:00:00Z",
    interval: { amount: 1, unit: "days" },
    overlap: true,
    autoRetry: false,
    autoRetryAttempts: 3,
    reuseClusterStrategy: "any",
    task: { nodes: 2, terminateOnIdle: true, timeToIdle: 60, packages: [{ packageId: 101, variables: {} }] },
    status: "enabled",
    nextRunAt: null,
    lastRunAt: null,
    lastRunStatus: null,
    executionCount: 0,
    ownerId: 1,
    createdAt: "2026-11-30T00:00:00Z",
    updatedAt: "2026-11-30T00:00:00Z",
    htmlUrl: "https://x/schedules/1",
  } as ScheduleOutputs;
  const diff = (o: ScheduleOutputs, news: ScheduleInputs) => scheduleImplementation.diff("1", o, news);

  it("sees no change when omitted inputs are at their defaults and the start is the service's", async () => {
    expect(await diff(olds, inputs)).toMatchObject({ changes: false });
  });

  it("updates in place, the start too before the first run, and replaces for a new start after it", async () => {
    expect(await diff(olds, { ...inputs, enabled: false })).toMatchObject({ changes: true, replaces: [] });
    expect(tableOperations.updateBody(olds, { ...inputs, enabled: false })).toEqual({ status: "disabled" });
    const later = { ...inputs, startAt: "2026-12-02T02:00:00Z" };
    expect(await diff(olds, later)).toMatchObject({ changes: true, replaces: [] });
    expect(await diff({ ...olds, executionCount: 3 }, later)).toMatchObject({ changes: true, replaces: ["startAt"] });
  });
});

describe("stringLiteral", () => {
  it("quotes text for the service's expressions and refuses a quote it cannot escape", () => {
    expect(stringLiteral("eu")).toBe("'eu'");
    expect(() => stringLiteral("it's")).toThrow(/single quote/);
  });
});

describe("a startAt in the past", () => {
  async function warnings(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<string[]> {
    const lines: string[] = [];
    const report: Reporter = { status: (line) => lines.push(`status: ${line}`), note: (line, severity) => lines.push(`${severity}: ${line}`) };
    expect((await scheduleImplementation.check(olds, news, report)).ok).toBe(true);
    return lines;
  }
  const schedule = { name: "n", interval: { amount: 1, unit: "days" }, task: { packages: [{ packageId: 101 }] } };

  it("is warned of when given or changed, as the service starts at the next run time without the runs before", async () => {
    expect(await warnings({}, { ...schedule, startAt: "2020-01-01T02:00:00Z" })).toEqual([
      "warning: startAt 2020-01-01T02:00:00Z lies in the past: the schedule runs from its next run time after now, and the runs before it are not made up",
    ]);
  });

  it("is not warned of again once the schedule has it, however it is written, nor when it lies ahead", async () => {
    expect(await warnings({ startAt: "2020-01-01T02:00:00.000Z" }, { ...schedule, startAt: "2020-01-01T02:00:00Z" })).toEqual([]);
    expect(await warnings({}, { ...schedule, startAt: "2099-01-01T02:00:00Z" })).toEqual([]);
  });
});
