import { SCHEDULE_AUTO_RETRY_ATTEMPTS, SCHEDULE_TIME_TO_IDLE_SECONDS } from "../../../contract/limits";
import type { ScheduleIntervalUnit, ScheduleReuseClusterStrategy, ScheduleRunStatus, ScheduleStatus } from "../../../contract/vocabularies";
import { isoTime } from "../../clock";
import { defineTable, type NewRowPlace, type Row, type Store } from "../../store";
import { creatorWatching, type Watcher } from "../../watchers";
import { firstRunFrom } from "./timing";

/**
 * Schedules (facts, "Schedules"): run packages every interval from `start_at`. The row keeps
 * what a client set, what time did (runs, their count, the next one) and who watches it.
 */

export interface SchedulePackage {
  packageId: number;
  /** Expressions by variable name, passed to each job as its variables. */
  variables: Record<string, string>;
}

/** How the clusters a schedule creates are made, and what each run runs. */
export interface ScheduleTask {
  nodes: number;
  terminateOnIdle: boolean;
  /** Seconds, as for clusters. */
  timeToIdle: number;
  packages: SchedulePackage[];
}

/** What a client chooses about a schedule. */
export interface ScheduleSettings {
  name: string;
  description: string;
  status: ScheduleStatus;
  startAt: string;
  intervalAmount: number;
  intervalUnit: ScheduleIntervalUnit;
  overlap: boolean;
  autoRetry: boolean;
  autoRetryAttempts: number;
  reuseClusterStrategy: ScheduleReuseClusterStrategy;
  task: ScheduleTask;
}

/** What a schedule is given when the client leaves a field out (facts, "Schedules"). */
export const SCHEDULE_DEFAULTS = {
  name: "Untitled",
  description: "",
  // The create page says a new schedule "returns disabled"; only an explicit status enables it.
  status: "disabled",
  intervalAmount: 1,
  intervalUnit: "hours",
  overlap: true,
  autoRetry: false,
  autoRetryAttempts: SCHEDULE_AUTO_RETRY_ATTEMPTS.default,
  reuseClusterStrategy: "any",
} as const satisfies Partial<ScheduleSettings>;

export const TASK_DEFAULTS = {
  nodes: 2,
  terminateOnIdle: true,
  timeToIdle: SCHEDULE_TIME_TO_IDLE_SECONDS.default,
} as const satisfies Partial<ScheduleTask>;

/** A run whose jobs have not all finished: for each of the task's packages, its latest attempt. */
export interface ActiveRun {
  number: number;
  jobIds: number[];
}

export interface ScheduleRow extends Row, ScheduleSettings {
  ownerId: number;
  /** Null while disabled, or when no run is left before the end of time. */
  nextRunAt: string | null;
  lastRunAt: string | null;
  lastRunStatus: ScheduleRunStatus | null;
  executionCount: number;
  activeRuns: ActiveRun[];
  watchers: Watcher[];
  createdAt: string;
  updatedAt: string;
}

export const SCHEDULES = defineTable<ScheduleRow>("schedules");

export type Timing = Pick<ScheduleRow, "status" | "startAt" | "intervalAmount" | "intervalUnit">;

/** When an enabled schedule next fires counting from `at`: runs already missed are not made up for. */
export function nextRunFrom(schedule: Timing, store: Store, at: number): string | null {
  if (schedule.status !== "enabled") return null;
  const next = firstRunFrom(schedule, store.clock, at);
  return next === undefined ? null : isoTime(next);
}

export interface NewSchedule extends ScheduleSettings, NewRowPlace {
  ownerId: number;
}

/** A schedule that has not run yet, watched by its owner (the creator watches by default). */
export function insertSchedule(store: Store, fields: NewSchedule): ScheduleRow {
  const now = store.clock.now();
  return store.insert(SCHEDULES, {
    ...fields,
    nextRunAt: nextRunFrom(fields, store, now),
    lastRunAt: null,
    lastRunStatus: null,
    executionCount: 0,
    activeRuns: [],
    watchers: creatorWatching(fields.ownerId, now),
    createdAt: isoTime(now),
    updatedAt: isoTime(now),
  });
}

/** The settings of a schedule, as a clone copies them. */
export function settingsOf(schedule: ScheduleRow): ScheduleSettings {
  const { name, description, status, startAt, intervalAmount, intervalUnit, overlap, autoRetry, autoRetryAttempts, reuseClusterStrategy } = schedule;
  const task = { ...schedule.task, packages: schedule.task.packages.map((item) => ({ ...item, variables: { ...item.variables } })) };
  return { name, description, status, startAt, intervalAmount, intervalUnit, overlap, autoRetry, autoRetryAttempts, reuseClusterStrategy, task };
}
