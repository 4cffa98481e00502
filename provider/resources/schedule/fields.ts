/**
 * Schedule's fields. Everything updates in place, `startAt` too until the schedule has run (see
 * implementation.ts). A declared schedule is enabled unless said otherwise, though the service makes
 * new schedules disabled, so `enabled` is always sent. Omitted `startAt` is the service's choice
 * (the time of creation) and not managed. `status`, the run times and `executionCount` move on
 * their own: outputs only, never a reason to change anything.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { ScheduleRecord } from "../../api/schedules";
import { CLUSTER_NODES, SCHEDULE_AUTO_RETRY_ATTEMPTS, SCHEDULE_INTERVAL_AMOUNT_MIN, SCHEDULE_TIME_TO_IDLE_SECONDS } from "../../../contract/limits";
import { SCHEDULE_INTERVAL_UNITS, SCHEDULE_REUSE_CLUSTER_STRATEGIES, type ScheduleIntervalUnit } from "../../../contract/vocabularies";
import { importIdField } from "../shared/adopt";
import type { ObjectReference } from "../shared/references";
import { labelText, objectIdInput, unlessUnknown } from "../shared/check";
import { fieldOperations, objectRule, takes, output, OUTPUT, type ArgsOf, type Field, type InputsOf, type OutputsOf } from "../shared/fields";

function integerBetween(range: { min: number; max: number }) {
  return z.number().refine(Number.isInteger, { message: "must be an integer", abort: true }).min(range.min).max(range.max);
}

/** One way of writing an instant (UTC, milliseconds), so a time given with an offset or written by the service compares equal. */
function canonicalTime(text: string): string {
  return new Date(text).toISOString();
}

const dateTime = z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time such as 2026-01-31T02:00:00Z" }).transform(canonicalTime);

const interval = z.strictObject({
  amount: z.number().refine(Number.isInteger, { message: "must be an integer", abort: true }).min(SCHEDULE_INTERVAL_AMOUNT_MIN),
  unit: z.enum(SCHEDULE_INTERVAL_UNITS),
});

const scheduledPackageFields = {
  /** The package to run: a `Package`, or its id as a number or a string. */
  packageId: { program: takes<ObjectReference>(), input: unlessUnknown(objectIdInput(101)), required: true },
  /**
   * Variables of the run. Values are expressions: a text value needs single quotes inside the
   * string (`"'eu'"`); `stringLiteral("eu")` writes one.
   */
  variables: { program: takes<pulumi.Input<Record<string, pulumi.Input<string>>>>(), input: unlessUnknown(z.record(z.string(), z.string())) },
} as const;

/** A package a schedule's run runs. */
export type ScheduledPackageArgs = ArgsOf<typeof scheduledPackageFields>;

const scheduledPackage = objectRule(scheduledPackageFields);

/** The task with its defaults, so an omitted setting and its default compare equal. */
const taskFields = {
  /** Nodes of a cluster the schedule creates, and the least a reused one must have; default 2. */
  nodes: { program: takes<pulumi.Input<number>>(), input: unlessUnknown(integerBetween(CLUSTER_NODES)) },
  /** Whether a cluster the schedule creates terminates when idle; default true. */
  terminateOnIdle: { program: takes<pulumi.Input<boolean>>(), input: unlessUnknown(z.boolean()) },
  /** Seconds such a cluster may stay idle; default 60. */
  timeToIdle: { program: takes<pulumi.Input<number>>(), input: unlessUnknown(integerBetween(SCHEDULE_TIME_TO_IDLE_SECONDS)) },
  /** The packages each run runs, one job each, in this order; at least one. */
  packages: {
    program: takes<pulumi.Input<pulumi.Input<ScheduledPackageArgs>[]>>(),
    input: z.array(unlessUnknown(scheduledPackage)).min(1),
    required: true,
  },
} as const;

/** What each run of a schedule does. */
export type ScheduleTaskArgs = ArgsOf<typeof taskFields>;

const task = objectRule(taskFields).transform((given) => ({
  nodes: given.nodes ?? 2,
  terminateOnIdle: given.terminateOnIdle ?? true,
  timeToIdle: given.timeToIdle ?? SCHEDULE_TIME_TO_IDLE_SECONDS.default,
  packages: given.packages.map((item) => ({ packageId: item.packageId, variables: item.variables ?? {} })),
}));
type Task = z.output<typeof task>;

function taskOf(record: ScheduleRecord): Task {
  const { nodes, terminate_on_idle, time_to_idle, packages } = record.task;
  return {
    nodes,
    terminateOnIdle: terminate_on_idle,
    timeToIdle: time_to_idle,
    packages: packages.map((p) => ({ packageId: p.package_id, variables: p.variables })),
  };
}

function taskBody(value: Task) {
  const packages = value.packages.map((item) => ({ package_id: item.packageId, variables: item.variables }));
  return { nodes: value.nodes, terminate_on_idle: value.terminateOnIdle, time_to_idle: value.timeToIdle, packages };
}

const table = {
  /** 1 to 255 characters. */
  name: { input: labelText(), required: true, api: "name", onChange: "update" },
  /** Left out, the schedule has no description (one set elsewhere is removed). */
  description: { input: z.string(), default: "", api: "description", onChange: "update" },
  /** Whether the schedule runs; default true. */
  enabled: {
    input: z.boolean(),
    default: true,
    sendDefault: true,
    api: "status",
    toApi: (on: boolean) => (on ? "enabled" : "disabled"),
    onChange: "update",
    read: (r) => r.status === "enabled",
  },
  /**
   * The first run, as an ISO 8601 date-time. Left out, the service starts it at its creation and
   * Pulumi leaves it alone. Once the schedule has run, changing it replaces the schedule.
   */
  startAt: {
    input: dateTime,
    unmanagedWhenOmitted: true,
    api: "start_at",
    onChange: "update",
    read: (r) => (r.start_at === null ? null : canonicalTime(r.start_at)),
  },
  /** Time between runs. */
  interval: {
    program: takes<pulumi.Input<{ amount: pulumi.Input<number>; unit: pulumi.Input<ScheduleIntervalUnit> }>>(),
    input: interval,
    required: true,
    api: ["interval_amount", "interval_unit"],
    toApi: (value: z.output<typeof interval>) => [value.amount, value.unit],
    onChange: "update",
    read: (r) => ({ amount: r.interval_amount, unit: r.interval_unit }),
  },
  /** Whether a run may start while the previous one still runs; default true. */
  overlap: { input: z.boolean(), default: true, api: "overlap", onChange: "update" },
  /** Whether failed jobs run again; default false. */
  autoRetry: { input: z.boolean(), default: false, api: "auto_retry", onChange: "update" },
  /** How often a failed job runs again, 1 to 5; default 3. */
  autoRetryAttempts: {
    input: integerBetween(SCHEDULE_AUTO_RETRY_ATTEMPTS),
    default: SCHEDULE_AUTO_RETRY_ATTEMPTS.default,
    api: "auto_retry_attempts",
    onChange: "update",
  },
  /** `any` (the default): a ready cluster with enough nodes; `self`: one this schedule created; `none`: always a new one. */
  reuseClusterStrategy: {
    program: takes<pulumi.Input<(typeof SCHEDULE_REUSE_CLUSTER_STRATEGIES)[number]>>(),
    input: z.enum(SCHEDULE_REUSE_CLUSTER_STRATEGIES),
    default: "any",
    api: "reuse_cluster_strategy",
    onChange: "update",
  },
  /** What each run does: the packages it runs and the cluster it runs them on. */
  task: {
    program: takes<pulumi.Input<ScheduleTaskArgs>>(),
    input: task,
    required: true,
    api: "task",
    toApi: taskBody,
    onChange: "update",
    read: taskOf,
    refersTo: { to: "package", at: "packages.*.packageId", checkedByService: true },
  },
  /** The id of an existing schedule to manage instead of creating one. */
  importId: importIdField,
  status: output("`enabled` or `disabled`, as `enabled` asks."),
  nextRunAt: output("When the schedule runs next."),
  lastRunAt: output("When the schedule last ran."),
  lastRunStatus: output("How its last run ended."),
  executionCount: output("How many times the schedule has run."),
  ownerId: OUTPUT,
  createdAt: OUTPUT,
  updatedAt: OUTPUT,
  htmlUrl: OUTPUT,
} satisfies Record<string, Field<ScheduleRecord>>;

/** What a program passes. */
export type ScheduleArgs = ArgsOf<typeof table>;

export const tableOperations = fieldOperations<ScheduleRecord, typeof table>(table);

export type ScheduleInputs = InputsOf<typeof table>;
export type ScheduleOutputs = OutputsOf<typeof table, ScheduleRecord>;

/**
 * A text value for a package's variables, which the service reads as expressions: `'eu'`. The
 * service documents no way to write a quote inside one, so text with a quote is refused.
 */
export function stringLiteral(text: string): string {
  if (text.includes("'"))
    throw new TypeError(`stringLiteral: the text must not contain a single quote (the service's expressions have no documented escape for it)`);
  return `'${text}'`;
}
