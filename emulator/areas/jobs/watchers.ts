import type { JobStatus } from "../../../contract/vocabularies";
import type { Store } from "../../store";
import { notifyWatchers, watcherRoute, type WatcherMessage } from "../../watchers";
import { packageSummary } from "../packages/interface";
import { jobUrl } from "./json";
import { JOBS, type JobRow, type JobStatusChange } from "./model";

/** Watchers of a job (`emulator/watchers.ts`) are told when it completes, fails or is stopped (facts). */

export const jobWatcherRoute = watcherRoute({ kind: "job", table: JOBS, url: jobUrl });

const ENDINGS: Partial<Record<JobStatus, (job: JobRow, what: string) => WatcherMessage>> = {
  completed: (job, what) => ({ title: `Job ${job.id} completed`, body: `${what} completed.` }),
  failed: (job, what) => ({ title: `Job ${job.id} failed`, body: `${what} failed: ${job.errors}` }),
  stopped: (job, what) => ({ title: `Job ${job.id} stopped`, body: `${what} was stopped.` }),
};

/** "Job 12 of package 'orders-rollup'", or the package's id when it is gone. */
function describeJob(store: Store, job: JobRow): string {
  const pkg = packageSummary(store, job.accountId, job.packageId);
  return `Job ${job.id} of package ${pkg === undefined ? job.packageId : `'${pkg.name}'`}`;
}

export function notifyJobWatchers(store: Store, change: JobStatusChange): void {
  const message = ENDINGS[change.row.status];
  if (message === undefined || change.previous === null) return;
  // The change shows a view of the record; its watchers are kept on the row itself.
  const job = store.find(JOBS, change.row.accountId, change.row.id);
  if (job !== undefined) notifyWatchers(store, job, message(job, describeJob(store, job)), change.at);
}
