/** Jobs, runs of a package on a cluster: `{base_url}/jobs` (spec 2.1 to 4.1, facts "Jobs"). */
import { z } from "zod";
import type { ApiRequest } from "../client/http";
import { FINISHED_JOB_STATUSES, JOB_STATUSES } from "../../contract/vocabularies";
import { collection } from "./collection";

const dateTime = z.iso.datetime({ offset: true });

export { FINISHED_JOB_STATUSES, JOB_STATUSES };

const reference = z.object({ id: z.number().int(), name: z.string(), url: z.string() });

/** Spec 2.2; `progress` and `preview_url` are seen in the service's responses (facts). */
export const jobOutputRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  records_count: z.number().int(),
  created_at: dateTime,
  updated_at: dateTime,
  url: z.string(),
  component: z.object({ name: z.string(), type: z.string(), fields: z.array(z.string()) }),
  progress: z.number().min(0).max(1).optional(),
  preview_url: z.string().nullish(),
});
export type JobOutputRecord = z.output<typeof jobOutputRecord>;

/** Spec 2.1; `completed_at` is seen in the service's responses (facts). */
export const jobRecord = z.object({
  id: z.number().int(),
  status: z.string(),
  owner_id: z.number().int(),
  progress: z.number().min(0).max(1),
  outputs_count: z.number().int(),
  outputs: z.array(jobOutputRecord),
  variables: z.record(z.string(), z.unknown()),
  dynamic_variables: z.record(z.string(), z.unknown()),
  started_at: dateTime.nullable(),
  created_at: dateTime,
  failed_at: dateTime.nullable(),
  completed_at: dateTime.nullish().transform((at) => at ?? null),
  updated_at: dateTime,
  cluster_id: z.number().int(),
  package_id: z.number().int(),
  // The service has sent null for "no errors" (facts).
  errors: z
    .string()
    .nullable()
    .transform((e) => e ?? ""),
  runtime_in_seconds: z.number().int(),
  url: z.string(),
  html_url: z.string(),
  log_url: z.string().nullable(),
  creator: z.object({ type: z.string(), display_name: z.string(), id: z.number().int(), url: z.string() }),
  package: reference,
  cluster: reference,
});
export type JobRecord = z.output<typeof jobRecord>;

/** Every field a job may have; anything else in a response is undocumented. */
export const JOB_FIELDS: readonly string[] = Object.keys(jobRecord.shape);
export const JOB_OUTPUT_FIELDS: readonly string[] = Object.keys(jobOutputRecord.shape);

/** Spec 2.3. Variable values are strings; dynamic ones are evaluated when the job runs. */
export interface JobCreate {
  cluster_id: number;
  package_id: number;
  variables?: Record<string, string>;
  dynamic_variables?: Record<string, string>;
}

export const jobs = collection<typeof jobRecord, JobCreate>({ path: "/jobs", record: jobRecord, what: "a job" });

/**
 * `runJob` (spec 4.1): the job is created and started, and answers in `idle`. `stopJob` asks the
 * job to stop: it answers in `pending_stoppage` and ends `stopped`. A job is never changed.
 */
export const { create: runJob, get: getJob, deleteAnswered: stopJob } = jobs;

export function isJobFinished(status: string): boolean {
  return (FINISHED_JOB_STATUSES as readonly string[]).includes(status);
}

/** The first page of a package's jobs created at or after `since`, newest first, whatever their status. */
export function listRecentJobsRequest(packageId: number, since: Date): ApiRequest {
  return {
    method: "GET",
    path: "/jobs",
    query: { package_id: packageId, since: since.toISOString(), status: "all", sort: "created", direction: "desc" },
  };
}
