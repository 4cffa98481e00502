import type { Store } from "../../store";
import type { ClusterJobCounts } from "../clusters/interface";
import { jobRunOf } from "../packages/interface";
import { insertJob, jobCountsByCluster, JOBS, jobsOfAccount, type DeliveredJob, type JobFacts, type ScheduledJob } from "./model";

/**
 * What other areas may know of jobs and ask of them, without their rows: a read-only view of a
 * job (hooks' notifications, a schedule's runs and retries), a job for a schedule's or a
 * delivery's run, and what a cluster's lifecycle does to the jobs on it. Every write to a job
 * stays in this area.
 */

export type { DeliveredJob, JobFacts, JobStatusChange, ScheduledJob } from "./model";
export { JOB_STATUS_CHANGED } from "./model";
export { isFinished } from "./model";
export { hasUnfinishedJobsOn, startQueuedJobs, stopJobsOn } from "./lifecycle";

/** The 402 of a run by an account without billing information, which schedules answer too. */
export const BILLING_REQUIRED_MESSAGE = "Billing information required: add a payment method before running jobs.";

export function jobFacts(store: Store, accountId: number, id: number): JobFacts | undefined {
  return store.find(JOBS, accountId, id);
}

/** What an area that starts jobs gives of one; it runs as its package says when it is submitted. */
export interface JobSubmission {
  accountId: number;
  ownerId: number;
  clusterId: number;
  packageId: number;
  variables: Record<string, string>;
  scheduled?: ScheduledJob;
  delivery?: DeliveredJob;
}

/** A job as Run Job makes one, started by another area's run; its package must be able to run. */
export function submitJob(store: Store, submission: JobSubmission, at: number): JobFacts {
  const run = jobRunOf(store, submission.accountId, submission.packageId);
  if (run === undefined) throw new Error(`package ${submission.packageId} of account ${submission.accountId} cannot run a job`);
  return insertJob(store, { ...submission, run, dynamicVariables: {} }, at);
}

/** Running and queued jobs of the account per cluster id, for the clusters' JSON. */
export function jobCountsOfAccount(store: Store, accountId: number): Map<number, ClusterJobCounts> {
  return jobCountsByCluster(jobsOfAccount(store, accountId));
}
