import { z } from "zod";
import {
  CLUSTER_NODES,
  RECORD_ID_TEXT,
  SCHEDULE_AUTO_RETRY_ATTEMPTS,
  SCHEDULE_INTERVAL_AMOUNT_MIN,
  SCHEDULE_TIME_TO_IDLE_SECONDS,
} from "../../../contract/limits";
import { SCHEDULE_INTERVAL_UNITS, SCHEDULE_REUSE_CLUSTER_STRATEGIES, SCHEDULE_STATUSES } from "../../../contract/vocabularies";
import { invalid } from "../../body";
import { isoTime } from "../../clock";
import { boolean, integer, integerBetween, label, nullableText, stringMap } from "../../fields";
import type { ApiContext } from "../../routing";
import { packageRunRefusal } from "../packages/interface";
import { SCHEDULE_DEFAULTS, TASK_DEFAULTS, type ScheduleRow, type ScheduleSettings, type ScheduleTask } from "./model";

/**
 * Schedule request bodies (facts, "Schedule input fields"), in the documented flat form: the
 * fields at the top level, `task` nested, `task.packages` an array (the old `{"schedule": {...}}`
 * wrapper and index-keyed package objects are refused). Create needs only `task.packages`; every
 * other field has its documented default. An update changes only the fields it gives.
 */

const PACKAGE_ID_RULE = "must be a positive integer, or one written as a string";

/** The documentation's examples send ids as strings, a client library as numbers: both are taken. */
function packageId() {
  return z.unknown().transform((value, ctx) => {
    if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return value;
    if (typeof value === "string" && RECORD_ID_TEXT.test(value)) return Number(value);
    ctx.addIssue({ code: "custom", message: value === undefined ? "is required" : PACKAGE_ID_RULE });
    return z.NEVER;
  });
}

const packageItem = z.strictObject({ package_id: packageId(), variables: stringMap().optional() });

const packageList = z.array(packageItem).min(1, "must list at least one package");

const taskFields = {
  nodes: integerBetween(CLUSTER_NODES).optional(),
  terminate_on_idle: boolean().optional(),
  time_to_idle: integerBetween(SCHEDULE_TIME_TO_IDLE_SECONDS).optional(),
};

const settingFields = {
  name: label().optional(),
  description: nullableText().optional(),
  status: z.enum(SCHEDULE_STATUSES).optional(),
  start_at: z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time, e.g. 2026-01-31T12:00:00Z" }).optional(),
  interval_amount: integer().min(SCHEDULE_INTERVAL_AMOUNT_MIN, `must be an integer of at least ${SCHEDULE_INTERVAL_AMOUNT_MIN}`).optional(),
  interval_unit: z.enum(SCHEDULE_INTERVAL_UNITS).optional(),
  overlap: boolean().optional(),
  auto_retry: boolean().optional(),
  auto_retry_attempts: integerBetween(SCHEDULE_AUTO_RETRY_ATTEMPTS).optional(),
  reuse_cluster_strategy: z.enum(SCHEDULE_REUSE_CLUSTER_STRATEGIES).optional(),
};

export const createBodySchema = z.strictObject({ ...settingFields, task: z.strictObject({ ...taskFields, packages: packageList }) });
export const updateBodySchema = z.strictObject({ ...settingFields, task: z.strictObject({ ...taskFields, packages: packageList.optional() }).optional() });

export type UpdateBody = z.output<typeof updateBodySchema>;
type PackageItems = z.output<typeof packageList>;

/** Each package must be one of the account's that can run, as for a job (facts, "Schedules"). */
export function checkPackages(ctx: ApiContext, items: PackageItems | undefined): void {
  const problems = (items ?? []).flatMap((item, index) => {
    const at = `task.packages[${index}].package_id`;
    const refusal = packageRunRefusal(ctx.store, ctx.caller.account.id, item.package_id);
    return refusal === undefined ? [] : [`${at} ${refusal}`];
  });
  if (problems.length > 0) throw invalid(problems);
}

function packagesOf(items: PackageItems): ScheduleTask["packages"] {
  return items.map((item) => ({ packageId: item.package_id, variables: item.variables ?? {} }));
}

/** Stored as the service writes times, so a time sent with an offset reads back in UTC. */
function utc(time: string): string {
  return isoTime(Date.parse(time));
}

/** What a new schedule has before its body is applied: the documented defaults, starting now. */
export function defaultSettings(now: number): ScheduleSettings {
  return { ...SCHEDULE_DEFAULTS, startAt: isoTime(now), task: { ...TASK_DEFAULTS, packages: [] } };
}

/** `start_at` is history once the schedule has run: it may be sent again unchanged, never changed. */
export function checkStartAt(schedule: ScheduleRow, body: UpdateBody): void {
  if (body.start_at === undefined || schedule.executionCount === 0 || utc(body.start_at) === schedule.startAt) return;
  throw invalid([`start_at cannot be changed once the schedule has run (execution_count is ${schedule.executionCount})`]);
}

/** `settings` with the body's fields applied: each field left out keeps its value (partial updates too). */
export function applyBody(settings: ScheduleSettings, body: UpdateBody): ScheduleSettings {
  const task = body.task ?? {};
  return {
    name: body.name ?? settings.name,
    description: body.description === undefined ? settings.description : (body.description ?? ""),
    status: body.status ?? settings.status,
    startAt: body.start_at === undefined ? settings.startAt : utc(body.start_at),
    intervalAmount: body.interval_amount ?? settings.intervalAmount,
    intervalUnit: body.interval_unit ?? settings.intervalUnit,
    overlap: body.overlap ?? settings.overlap,
    autoRetry: body.auto_retry ?? settings.autoRetry,
    autoRetryAttempts: body.auto_retry_attempts ?? settings.autoRetryAttempts,
    reuseClusterStrategy: body.reuse_cluster_strategy ?? settings.reuseClusterStrategy,
    task: {
      nodes: task.nodes ?? settings.task.nodes,
      terminateOnIdle: task.terminate_on_idle ?? settings.task.terminateOnIdle,
      timeToIdle: task.time_to_idle ?? settings.task.timeToIdle,
      packages: task.packages === undefined ? settings.task.packages : packagesOf(task.packages),
    },
  };
}
