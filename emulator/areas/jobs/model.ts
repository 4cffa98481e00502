import { FINISHED_JOB_STATUSES, STOPPING_JOB_STATUSES, type JobStatus } from "../../../contract/vocabularies";
import { isoTime, type Clock } from "../../clock";
import { defineTable, type Row, type Store } from "../../store";
import { announce, defineTopic } from "../../topics";
import { creatorWatching, type WatchedRow } from "../../watchers";
import type { ClusterJobCounts } from "../clusters/interface";
import type { PackageRun } from "../packages/interface";

/**
 * Jobs: one run of a package's workflow on a cluster (spec sections 2.1 to 3). A job copies
 * its package's run behaviour when it is created, so it runs the same however long it waits.
 */

export const DEFAULT_FAILURE_MESSAGE = "The job failed.";

export interface JobHistoryEntry {
  status: JobStatus;
  at: string;
}

/** What a job started by a schedule carries (facts, "Schedules"): its schedule and which attempt it is. */
export interface ScheduledJob {
  scheduleId: number;
  /** 0 for a run's first attempt, then 1, 2, ... for its automatic retries. */
  attempts: number;
  /** The schedule's `auto_retry_attempts` when the run started; null without automatic retries. */
  masterAutoRetryAttempts: number | null;
}

/** What a job started by a delivery carries: the delivery. */
export interface DeliveredJob {
  deliveryId: number;
}

export interface JobRow extends Row, WatchedRow {
  ownerId: number;
  /** Only on jobs a schedule started; the others were started by their owner. */
  scheduled?: ScheduledJob;
  /** Only on jobs a delivery started. */
  delivery?: DeliveredJob;
  clusterId: number;
  packageId: number;
  variables: Record<string, string>;
  dynamicVariables: Record<string, string>;
  run: Omit<PackageRun, "outputs">;
  /** Rows of JOB_OUTPUTS, one per output the package writes, in the package's order. */
  outputIds: number[];
  status: JobStatus;
  /** When the job entered its status: every timed transition counts from here. */
  statusSince: string;
  /** Every status the job went through, oldest first; the log is written from it. */
  history: JobHistoryEntry[];
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  completedAt: string | null;
  failedAt: string | null;
  /** When it stopped running (finished, failed or asked to stop): progress freezes here. */
  runEndedAt: string | null;
  errors: string;
}

export const JOBS = defineTable<JobRow>("jobs");

export interface JobOutputRow extends Row {
  jobId: number;
  name: string;
  /** Records written by a complete run; a partial run has written its share of them. */
  records: number;
  component: { name: string; type: string; fields: string[] };
}

export const JOB_OUTPUTS = defineTable<JobOutputRow>("jobOutputs");

/** A job as other areas see it. */
export type JobFacts = Readonly<
  Pick<
    JobRow,
    | "id"
    | "accountId"
    | "ownerId"
    | "status"
    | "statusSince"
    | "clusterId"
    | "packageId"
    | "variables"
    | "scheduled"
    | "delivery"
    | "errors"
    | "createdAt"
    | "updatedAt"
    | "startedAt"
    | "completedAt"
    | "failedAt"
  >
>;

/** A job's status set, or its first (`previous` null), at `at`: told to whoever hears `JOB_STATUS_CHANGED`. */
export interface JobStatusChange {
  subject: "job";
  row: JobFacts;
  previous: JobStatus | null;
  at: number;
}

/** Heard inside the request or the lifecycle step that made the change. */
export const JOB_STATUS_CHANGED = defineTopic<JobStatusChange>("job status");

export function isFinished(job: Pick<JobRow, "status">): boolean {
  return FINISHED_JOB_STATUSES.includes(job.status);
}

export function isStopping(job: JobRow): boolean {
  return STOPPING_JOB_STATUSES.includes(job.status);
}

/** A started job keeps its place on the cluster until it has finished. */
export function holdsSlot(job: JobRow): boolean {
  return job.startedAt !== null && !isFinished(job);
}

export interface NewJob {
  accountId: number;
  ownerId: number;
  clusterId: number;
  packageId: number;
  /** How the job runs, as the package says when the job is made (`jobRunOf`). */
  run: PackageRun;
  variables: Record<string, string>;
  dynamicVariables: Record<string, string>;
  scheduled?: ScheduledJob;
  delivery?: DeliveredJob;
}

/** Outputs are rows of their own so each has an id of the one output sequence. */
function insertOutputs(store: Store, job: JobRow, run: PackageRun): number[] {
  return run.outputs.map(
    (output) =>
      store.insert(JOB_OUTPUTS, {
        accountId: job.accountId,
        jobId: job.id,
        name: output.name,
        records: output.records,
        component: output.component ?? { name: output.name, type: "destination", fields: [] },
      }).id,
  );
}

/** A job as Run Job creates it: idle, copying how its package runs. */
export function insertJob(store: Store, fields: NewJob, atMs: number): JobRow {
  const at = isoTime(atMs);
  const { outputs: _, ...run } = fields.run;
  const job = store.insert(JOBS, {
    accountId: fields.accountId,
    ownerId: fields.ownerId,
    clusterId: fields.clusterId,
    packageId: fields.packageId,
    variables: fields.variables,
    dynamicVariables: fields.dynamicVariables,
    run,
    outputIds: [],
    status: "idle",
    statusSince: at,
    history: [{ status: "idle", at }],
    createdAt: at,
    updatedAt: at,
    startedAt: null,
    completedAt: null,
    failedAt: null,
    runEndedAt: null,
    errors: "",
    watchers: creatorWatching(fields.ownerId, atMs),
    // Left out rather than undefined, so a job run by a user is stored as it always was.
    ...(fields.scheduled === undefined ? {} : { scheduled: fields.scheduled }),
    ...(fields.delivery === undefined ? {} : { delivery: fields.delivery }),
  });
  store.update(JOBS, job, { outputIds: insertOutputs(store, job, fields.run) });
  announce(store, JOB_STATUS_CHANGED, { subject: "job", row: job, previous: null, at: atMs });
  return job;
}

/** The timestamps and texts each status implies, so they can never disagree with it. */
function statusFields(job: JobRow, status: JobStatus, at: string): Partial<JobRow> {
  const changes: Partial<JobRow> = {};
  if (status === "running") changes.startedAt = at;
  if (job.status === "running") changes.runEndedAt = at;
  if (status === "completed") changes.completedAt = at;
  if (status === "failed") {
    changes.failedAt = at;
    changes.errors = job.run.error ?? DEFAULT_FAILURE_MESSAGE;
  }
  return changes;
}

export function setJobStatus(store: Store, job: JobRow, status: JobStatus, atMs: number): void {
  const at = isoTime(atMs);
  const previous = job.status;
  store.update(JOBS, job, {
    ...statusFields(job, status, at),
    status,
    statusSince: at,
    updatedAt: at,
    history: [...job.history, { status, at }],
  });
  announce(store, JOB_STATUS_CHANGED, { subject: "job", row: job, previous, at: atMs });
}

export function jobsOfAccount(store: Store, accountId: number): JobRow[] {
  return store.list(JOBS, accountId);
}

/** Running and queued jobs per cluster id, counted in one pass. */
export function jobCountsByCluster(jobs: readonly JobRow[]): Map<number, ClusterJobCounts> {
  const counts = new Map<number, ClusterJobCounts>();
  for (const job of jobs) {
    if (job.status !== "running" && job.status !== "queued") continue;
    const entry = counts.get(job.clusterId) ?? { running: 0, queued: 0 };
    entry[job.status === "running" ? "running" : "queued"]++;
    counts.set(job.clusterId, entry);
  }
  return counts;
}

// ---- progress

/** When the job's progress is measured: now while it runs, else when it stopped running. */
export function progressTime(job: JobRow, now: number): number {
  return job.runEndedAt === null ? now : Date.parse(job.runEndedAt);
}

/** 0 to 1, rising linearly over the package's run time while the job runs. */
export function jobProgress(job: JobRow, clock: Clock, now: number): number {
  if (job.status === "completed") return 1;
  if (job.startedAt === null) return 0;
  const total = clock.duration(job.run.seconds);
  if (total <= 0) return 1;
  return Math.min(1, Math.max(0, (progressTime(job, now) - Date.parse(job.startedAt)) / total));
}

/** Simulated seconds spent running; a run that reached its end took exactly its run time. */
export function runtimeSeconds(job: JobRow, clock: Clock, now: number): number {
  if (job.status === "completed" || job.status === "failed") return job.run.seconds;
  if (job.startedAt === null) return 0;
  const elapsed = progressTime(job, now) - Date.parse(job.startedAt);
  return Math.max(0, Math.floor(elapsed / clock.duration(1)));
}

export function jobOutputsOf(store: Store, job: JobRow): JobOutputRow[] {
  return job.outputIds.flatMap((id) => store.find(JOB_OUTPUTS, job.accountId, id) ?? []);
}

/**
 * Outputs appear when the job starts. A failed run's outputs are dropped: what it wrote is not
 * delivered. A stopped run keeps what it had written when asked to stop.
 */
export function visibleOutputs(store: Store, job: JobRow): JobOutputRow[] {
  return job.startedAt === null || job.status === "failed" ? [] : jobOutputsOf(store, job);
}
