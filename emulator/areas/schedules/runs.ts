import type { ScheduleRunStatus } from "../../../contract/vocabularies";
import { isoTime } from "../../clock";
import type { Store } from "../../store";
import { accountById } from "../accounts/interface";
import { clusterFacts, clustersOfAccount, isEnding, isReady, requestCluster, type ClusterFacts } from "../clusters/interface";
import { isFinished, jobFacts, submitJob, type JobFacts, type ScheduledJob } from "../jobs/interface";
import { packageRunRefusal } from "../packages/interface";
import { SCHEDULES, type ActiveRun, type SchedulePackage, type ScheduleRow } from "./model";

/**
 * A schedule's runs: each runs every package of its task as a job, on a cluster chosen by
 * `reuse_cluster_strategy`, retries failed jobs when `auto_retry` is on, and ends with the
 * outcome of its jobs' last attempts. Jobs and clusters then move on as the jobs and clusters
 * areas make them: a job on a cluster still coming up waits `queued` until it is ready.
 */

/** A cluster the schedule may reuse: alive, big enough, and its own when the strategy says `self`. */
function canReuse(schedule: ScheduleRow, cluster: ClusterFacts): boolean {
  if (isEnding(cluster) || cluster.status === "error" || cluster.nodes < schedule.task.nodes) return false;
  return schedule.reuseClusterStrategy === "any" || cluster.scheduleId === schedule.id;
}

/**
 * Ready clusters first, then ones still coming up, so runs a minute apart do not each create a
 * cluster while the first is being made; the oldest of equals, so runs keep to one cluster.
 */
function reusableCluster(store: Store, schedule: ScheduleRow): ClusterFacts | undefined {
  if (schedule.reuseClusterStrategy === "none") return undefined;
  const candidates = clustersOfAccount(store, schedule.accountId).filter((cluster) => canReuse(schedule, cluster));
  return candidates.find(isReady) ?? candidates[0];
}

/** A cluster made from the task's settings, remembered as the schedule's own. */
function createCluster(store: Store, schedule: ScheduleRow, run: number, at: number): ClusterFacts {
  return requestCluster(
    store,
    {
      accountId: schedule.accountId,
      ownerId: schedule.ownerId,
      name: `schedule-${schedule.id}-run-${run}`,
      description: `Created by schedule '${schedule.name}'`,
      nodes: schedule.task.nodes,
      terminateOnIdle: schedule.task.terminateOnIdle,
      timeToIdle: schedule.task.timeToIdle,
      scheduleId: schedule.id,
    },
    at,
  );
}

function clusterForRun(store: Store, schedule: ScheduleRow, run: number, at: number): ClusterFacts {
  return reusableCluster(store, schedule) ?? createCluster(store, schedule, run, at);
}

/** The task's packages that can still run (the account's, and active), each with its package row. */
function runnablePackages(store: Store, schedule: ScheduleRow): SchedulePackage[] {
  return schedule.task.packages.filter((item) => packageRunRefusal(store, schedule.accountId, item.packageId) === undefined);
}

interface ScheduledRun {
  clusterId: number;
  packageId: number;
  variables: Record<string, string>;
  scheduled: ScheduledJob;
}

/** One job of a run, owned by the schedule's owner as its creator is the schedule; it runs as its package says now. */
function runPackage(store: Store, schedule: ScheduleRow, job: ScheduledRun, at: number): JobFacts {
  const { accountId, ownerId } = schedule;
  return submitJob(store, { accountId, ownerId, ...job, variables: { ...job.variables } }, at);
}

/**
 * Starts the schedule's next run at `at`. An account without billing information runs no job,
 * as the API would refuse each one: the run counts and ends `failed` at once.
 */
export function startRun(store: Store, schedule: ScheduleRow, at: number): void {
  const number = schedule.executionCount + 1;
  const packages = runnablePackages(store, schedule);
  const runs = accountById(store, schedule.accountId)?.billing === true && packages.length > 0;
  const counted = { executionCount: number, lastRunAt: isoTime(at) };
  if (!runs) {
    store.update(SCHEDULES, schedule, { ...counted, lastRunStatus: "failed" });
    return;
  }
  const cluster = clusterForRun(store, schedule, number, at);
  const scheduled: ScheduledJob = { scheduleId: schedule.id, attempts: 0, masterAutoRetryAttempts: schedule.autoRetry ? schedule.autoRetryAttempts : null };
  const jobIds = packages.map(
    (item) => runPackage(store, schedule, { clusterId: cluster.id, packageId: item.packageId, variables: item.variables, scheduled }, at).id,
  );
  store.update(SCHEDULES, schedule, { ...counted, lastRunStatus: "running", activeRuns: [...schedule.activeRuns, { number, jobIds }] });
}

// ---- retries and the end of a run

/** The run's latest attempts, a job that no longer exists counting as stopped. */
function attemptsOf(store: Store, schedule: ScheduleRow, run: ActiveRun): (JobFacts | undefined)[] {
  return run.jobIds.map((id) => jobFacts(store, schedule.accountId, id));
}

type RetryableJob = JobFacts & { scheduled: ScheduledJob };

/** A failed attempt that may be tried again: auto retry was on when the run started, attempts are left. */
function canRetry(job: JobFacts | undefined): job is RetryableJob {
  const scheduled = job?.scheduled;
  if (job?.status !== "failed" || scheduled === undefined || scheduled.masterAutoRetryAttempts === null) return false;
  return scheduled.attempts < scheduled.masterAutoRetryAttempts;
}

/** The first failed attempt of the run that is due for a retry, if any. */
export function retryDue(store: Store, schedule: ScheduleRow, run: ActiveRun): RetryableJob | undefined {
  return attemptsOf(store, schedule, run).find(canRetry);
}

/** The failed attempt's next one: same package and variables, on its cluster while that lives. */
export function retry(store: Store, schedule: ScheduleRow, run: ActiveRun, failed: RetryableJob, at: number): void {
  const previous = clusterFacts(store, schedule.accountId, failed.clusterId);
  const cluster = previous !== undefined && !isEnding(previous) ? previous : clusterForRun(store, schedule, run.number, at);
  const scheduled = { ...failed.scheduled, attempts: failed.scheduled.attempts + 1 };
  const next = runPackage(store, schedule, { clusterId: cluster.id, packageId: failed.packageId, variables: failed.variables, scheduled }, at);
  const jobIds = run.jobIds.map((id) => (id === failed.id ? next.id : id));
  store.update(SCHEDULES, schedule, { activeRuns: schedule.activeRuns.map((r) => (r === run ? { ...r, jobIds } : r)) });
}

/** When every last attempt of the run has finished with no retry to come, else undefined. */
export function runEnd(store: Store, schedule: ScheduleRow, run: ActiveRun): number | undefined {
  const attempts = attemptsOf(store, schedule, run);
  if (attempts.some((job) => job !== undefined && (!isFinished(job) || canRetry(job)))) return undefined;
  return Math.max(...attempts.map((job) => (job === undefined ? -Infinity : Date.parse(job.statusSince))));
}

function outcomeOf(attempts: readonly (JobFacts | undefined)[]): ScheduleRunStatus {
  if (attempts.some((job) => job?.status === "failed")) return "failed";
  if (attempts.some((job) => job === undefined || job.status === "stopped")) return "stopped";
  return "completed";
}

/** The run is over; its outcome is the schedule's last run status if no run started after it. */
export function endRun(store: Store, schedule: ScheduleRow, run: ActiveRun): void {
  const activeRuns = schedule.activeRuns.filter((r) => r !== run);
  const latest = run.number === schedule.executionCount;
  store.update(SCHEDULES, schedule, latest ? { activeRuns, lastRunStatus: outcomeOf(attemptsOf(store, schedule, run)) } : { activeRuns });
}
