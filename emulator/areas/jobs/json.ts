import { isoTime } from "../../clock";
import { webAppUrl } from "../../routing";
import type { Store } from "../../store";
import { clusterFacts, clusterUrl } from "../clusters/interface";
import { deliveryCreatorJson } from "../deliveries/interface";
import { packageSummary } from "../packages/interface";
import { scheduleCreatorJson } from "../schedules/interface";
import { userById } from "../users/interface";
import { jobProgress, progressTime, runtimeSeconds, visibleOutputs, type JobOutputRow, type JobRow } from "./model";

/** The service's JSON for jobs and their outputs (spec 2.1 and 2.2, plus fields seen in the facts). */

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
  if (job.scheduled !== undefined) return scheduleCreatorJson(view.store, job.accountId, job.scheduled.scheduleId, view.baseUrl);
  if (job.delivery !== undefined) return deliveryCreatorJson(view.store, job.accountId, job.delivery.deliveryId, view.baseUrl);
  const user = userById(view.store, job.ownerId);
  return { type: "User", display_name: user?.name ?? "", id: job.ownerId, url: `${view.baseUrl}/users/${job.ownerId}` };
}

function packageRef(job: JobRow, view: JobView): Record<string, unknown> {
  const pkg = packageSummary(view.store, job.accountId, job.packageId);
  return { id: job.packageId, name: pkg?.name ?? "", url: `${view.baseUrl}/packages/${job.packageId}` };
}

function clusterRef(job: JobRow, view: JobView): Record<string, unknown> {
  const cluster = clusterFacts(view.store, job.accountId, job.clusterId);
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
    ...scheduledFields(job),
  };
}

/** Only jobs a schedule started carry their attempt (facts, "Schedules"). */
function scheduledFields(job: JobRow): Record<string, unknown> {
  if (job.scheduled === undefined) return {};
  return { attempts: job.scheduled.attempts, master_auto_retry_attempts: job.scheduled.masterAutoRetryAttempts };
}

/** Package variables overlaid by the job's own, then by its dynamic ones. */
export function effectiveVariables(job: JobRow, store: Store): Record<string, string> {
  const pkg = packageSummary(store, job.accountId, job.packageId);
  return { ...(pkg?.variables ?? {}), ...job.variables, ...job.dynamicVariables };
}
