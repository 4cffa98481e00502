import { isoTime, type Clock } from "../clock";
import type { AccountFixture, PackageRun } from "../fixtures";
import { defineTable, type Row, type Store } from "../store";
import { CLUSTERS, clusterUrl, type ClusterJobCounts } from "./clusters";
import { PACKAGES, webAppUrl, type PackageRow } from "./packages";

/**
 * Jobs: one run of a package's workflow on a cluster (spec sections 2.1 to 3). A job copies
 * its package's run behaviour when it is created, so it runs the same however long it waits.
 */

// The interface's own list, shared with the client so both sides speak one vocabulary.
export { JOB_STATUSES, type JobStatus } from "../../provider/api/jobs";
import type { JobStatus } from "../../contract/vocabularies";

const FINISHED: ReadonlySet<JobStatus> = new Set(["completed", "failed", "stopped"]);
const STOPPING: ReadonlySet<JobStatus> = new Set(["pending_stoppage", "stopping"]);

export const DEFAULT_FAILURE_MESSAGE = "The job failed.";

export interface JobHistoryEntry {
  status: JobStatus;
  at: string;
}

export interface JobRow extends Row {
  ownerId: number;
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

export function isFinished(job: JobRow): boolean {
  return FINISHED.has(job.status);
}

export function isStopping(job: JobRow): boolean {
  return STOPPING.has(job.status);
}

/** A started job keeps its place on the cluster until it has finished. */
export function holdsSlot(job: JobRow): boolean {
  return job.startedAt !== null && !isFinished(job);
}

export function seedJobs(_store: Store, _account: AccountFixture): void {}

export interface NewJob {
  accountId: number;
  ownerId: number;
  clusterId: number;
  pkg: PackageRow;
  variables: Record<string, string>;
  dynamicVariables: Record<string, string>;
}

/** Outputs are rows of their own so each has an id of the one output sequence. */
function insertOutputs(store: Store, job: JobRow, pkg: PackageRow): number[] {
  return pkg.run.outputs.map(
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
  const { outputs: _, ...run } = fields.pkg.run;
  const job = store.insert(JOBS, {
    accountId: fields.accountId,
    ownerId: fields.ownerId,
    clusterId: fields.clusterId,
    packageId: fields.pkg.id,
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
  });
  return store.update(JOBS, job, { outputIds: insertOutputs(store, job, fields.pkg) });
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
  store.update(JOBS, job, {
    ...statusFields(job, status, at),
    status,
    statusSince: at,
    updatedAt: at,
    history: [...job.history, { status, at }],
  });
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
function progressTime(job: JobRow, now: number): number {
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

// ---- JSON

/** What a response needs besides the row: names of related records, time, addresses. */
export interface JobView {
  store: Store;
  baseUrl: string;
  now: number;
}

export function jobUrl(baseUrl: string, id: number): string {
  return `${baseUrl}/jobs/${id}`;
}

export function logUrl(job: JobRow, baseUrl: string): string | null {
  return job.startedAt === null ? null : `${jobUrl(baseUrl, job.id)}/log`;
}

function outputUrl(baseUrl: string, output: JobOutputRow): string {
  return `${jobUrl(baseUrl, output.jobId)}/outputs/${output.id}`;
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

export function jobOutputJson(output: JobOutputRow, job: JobRow, view: JobView): Record<string, unknown> {
  const progress = jobProgress(job, view.store.clock, view.now);
  return {
    id: output.id,
    name: output.name,
    records_count: Math.round(output.records * progress),
    created_at: job.startedAt,
    updated_at: isoTime(progressTime(job, view.now)),
    url: outputUrl(view.baseUrl, output),
    component: output.component,
    progress,
    // Previews are a web application feature the emulator does not have.
    preview_url: null,
  };
}

function creatorJson(job: JobRow, view: JobView): Record<string, unknown> {
  const user = view.store.accountById(job.accountId)?.users.find((u) => u.id === job.ownerId);
  return { type: "User", display_name: user?.name ?? "", id: job.ownerId, url: `${view.baseUrl}/users/${job.ownerId}` };
}

function packageRef(job: JobRow, view: JobView): Record<string, unknown> {
  const pkg = view.store.find(PACKAGES, job.accountId, job.packageId);
  return { id: job.packageId, name: pkg?.name ?? "", url: `${view.baseUrl}/packages/${job.packageId}` };
}

function clusterRef(job: JobRow, view: JobView): Record<string, unknown> {
  const cluster = view.store.find(CLUSTERS, job.accountId, job.clusterId);
  return { id: job.clusterId, name: cluster?.name ?? "", url: clusterUrl(view.baseUrl, job.clusterId) };
}

/** The service's JSON for a job (spec section 2.1, plus `completed_at` from the facts). */
export function jobJson(job: JobRow, view: JobView): Record<string, unknown> {
  const outputs = visibleOutputs(view.store, job).map((output) => jobOutputJson(output, job, view));
  return {
    id: job.id,
    status: job.status,
    owner_id: job.ownerId,
    progress: jobProgress(job, view.store.clock, view.now),
    outputs_count: outputs.length,
    outputs,
    variables: job.variables,
    dynamic_variables: job.dynamicVariables,
    started_at: job.startedAt,
    created_at: job.createdAt,
    failed_at: job.failedAt,
    completed_at: job.completedAt,
    updated_at: job.updatedAt,
    cluster_id: job.clusterId,
    package_id: job.packageId,
    errors: job.errors,
    runtime_in_seconds: runtimeSeconds(job, view.store.clock, view.now),
    url: jobUrl(view.baseUrl, job.id),
    html_url: `${webAppUrl(view.baseUrl)}/jobs/${job.id}`,
    log_url: logUrl(job, view.baseUrl),
    creator: creatorJson(job, view),
    package: packageRef(job, view),
    cluster: clusterRef(job, view),
  };
}

/** Package variables overlaid by the job's own, then by its dynamic ones. */
export function effectiveVariables(job: JobRow, store: Store): Record<string, string> {
  const pkg = store.find(PACKAGES, job.accountId, job.packageId);
  return { ...(pkg?.variables ?? {}), ...job.variables, ...job.dynamicVariables };
}

// ---- log

interface LogLine {
  at: number;
  text: string;
}

function describeStatus(job: JobRow, status: JobStatus, view: JobView): string {
  const pkg = view.store.find(PACKAGES, job.accountId, job.packageId)?.name ?? `package ${job.packageId}`;
  const cluster = view.store.find(CLUSTERS, job.accountId, job.clusterId)?.name ?? `cluster ${job.clusterId}`;
  const records = visibleOutputs(view.store, job).reduce((sum, output) => sum + output.records, 0);
  const texts: Record<JobStatus, string> = {
    idle: `Run of package '${pkg}' requested`,
    pending: "Initializing",
    queued: `Waiting for resources on cluster '${cluster}'`,
    running: `Running on cluster '${cluster}'`,
    completed: `Completed: ${records} records written`,
    failed: `Failed: ${job.errors}`,
    pending_stoppage: "Stop requested",
    stopping: "Stopping",
    stopped: "Stopped",
  };
  return texts[status];
}

/** One line per tenth of the run reached so far, between the start and the end of running. */
function progressLines(job: JobRow, view: JobView): LogLine[] {
  if (job.startedAt === null || job.run.seconds <= 0) return [];
  const start = Date.parse(job.startedAt);
  const step = view.store.clock.duration(job.run.seconds) / 10;
  const until = progressTime(job, view.now);
  const lines: LogLine[] = [];
  for (let tenth = 1; tenth < 10 && start + tenth * step <= until; tenth++) {
    lines.push({ at: start + tenth * step, text: `Progress ${tenth * 10}%` });
  }
  return lines;
}

/** The job's log so far, one line per transition and per progress step, oldest first. */
export function jobLog(job: JobRow, view: JobView): string {
  const transitions = job.history.map((entry) => ({ at: Date.parse(entry.at), text: describeStatus(job, entry.status, view) }));
  const lines = [...transitions, ...progressLines(job, view)].sort((a, b) => a.at - b.at);
  return lines.map((line) => `${isoTime(line.at)} ${line.text}`).join("\n");
}
