import { z } from "zod";
import { CLUSTER_NODES, SCHEDULE_AUTO_RETRY_ATTEMPTS, SCHEDULE_INTERVAL_AMOUNT_MIN, SCHEDULE_TIME_TO_IDLE_SECONDS } from "../../../contract/limits";
import { SCHEDULE_INTERVAL_UNITS, SCHEDULE_REUSE_CLUSTER_STRATEGIES, SCHEDULE_STATUSES } from "../../../contract/vocabularies";
import { isoTime } from "../../clock";
import { defaultUserId, isoDateTime, positiveId, type FixtureAccount } from "../../fixtures/account";
import { fixtureProblem } from "../../fixtures/errors";
import type { Store } from "../../store";
import { packageSummary } from "../packages/interface";
import { accountFixtures } from "../area";
import { insertSchedule, SCHEDULE_DEFAULTS, SCHEDULES, TASK_DEFAULTS } from "./model";

/**
 * `schedules` of an account, in the API's terms but camel-cased, with the same defaults. They
 * have not run yet; `startAt` defaults to the start of the emulator, and an enabled one fires
 * from its first run time at or after it.
 */

const schedulePackageSchema = z.object({
  packageId: positiveId,
  variables: z.record(z.string(), z.string()).default({}),
});

const taskSchema = z.object({
  nodes: z.number().int().min(CLUSTER_NODES.min).max(CLUSTER_NODES.max).default(TASK_DEFAULTS.nodes),
  terminateOnIdle: z.boolean().default(TASK_DEFAULTS.terminateOnIdle),
  timeToIdle: z.number().int().min(SCHEDULE_TIME_TO_IDLE_SECONDS.min).max(SCHEDULE_TIME_TO_IDLE_SECONDS.max).default(TASK_DEFAULTS.timeToIdle),
  packages: z.array(schedulePackageSchema).min(1),
});

const scheduleSchema = z.object({
  id: positiveId.optional(),
  name: z.string().min(1).default(SCHEDULE_DEFAULTS.name),
  description: z.string().default(SCHEDULE_DEFAULTS.description),
  status: z.enum(SCHEDULE_STATUSES).default(SCHEDULE_DEFAULTS.status),
  startAt: isoDateTime.optional(),
  intervalAmount: z.number().int().min(SCHEDULE_INTERVAL_AMOUNT_MIN).default(SCHEDULE_DEFAULTS.intervalAmount),
  intervalUnit: z.enum(SCHEDULE_INTERVAL_UNITS).default(SCHEDULE_DEFAULTS.intervalUnit),
  overlap: z.boolean().default(SCHEDULE_DEFAULTS.overlap),
  autoRetry: z.boolean().default(SCHEDULE_DEFAULTS.autoRetry),
  autoRetryAttempts: z.number().int().min(SCHEDULE_AUTO_RETRY_ATTEMPTS.min).max(SCHEDULE_AUTO_RETRY_ATTEMPTS.max).default(SCHEDULE_DEFAULTS.autoRetryAttempts),
  reuseClusterStrategy: z.enum(SCHEDULE_REUSE_CLUSTER_STRATEGIES).default(SCHEDULE_DEFAULTS.reuseClusterStrategy),
  task: taskSchema,
  ownerId: positiveId.optional(),
});

type ScheduleFixture = z.output<typeof scheduleSchema>;

/** Fixture schedules obey the API's rules, so a seeded world is one the API could build. */
function checkScheduleFixture(store: Store, account: FixtureAccount, schedule: ScheduleFixture, index: number): void {
  if (schedule.id !== undefined && store.list(SCHEDULES).some((row) => row.id === schedule.id)) {
    throw fixtureProblem(account, `schedules[${index}].id`, `duplicate schedule id ${schedule.id}`);
  }
  schedule.task.packages.forEach(({ packageId }, j) => {
    const pkg = packageSummary(store, account.id, packageId);
    const problem =
      pkg === undefined ? `no package ${packageId} in this account` : pkg.status === "active" ? undefined : `package ${packageId} is ${pkg.status}`;
    if (problem !== undefined) throw fixtureProblem(account, `schedules[${index}].task.packages[${j}].packageId`, problem);
  });
}

function seedSchedules(store: Store, account: FixtureAccount, schedules: ScheduleFixture[]): void {
  const now = isoTime(store.clock.now());
  schedules.forEach(({ ownerId, startAt, ...schedule }, index) => {
    checkScheduleFixture(store, account, { ...schedule, startAt }, index);
    insertSchedule(store, { ...schedule, startAt: isoTime(Date.parse(startAt ?? now)), accountId: account.id, ownerId: ownerId ?? defaultUserId(account) });
  });
}

export const scheduleFixtures = accountFixtures({
  field: "schedules",
  schema: z.array(scheduleSchema).default([]),
  seed: seedSchedules,
});
