import { earliestOf, type AreaLifecycle, type Due, type LifecycleState } from "../../lifecycle/state";
import type { Store } from "../../store";
import { capacityOf, clusterFacts, isReady, jobEndedOn, jobStartedOn, type ClusterFacts } from "../clusters/interface";
import { holdsSlot, isFinished, isStopping, JOBS, setJobStatus, type JobRow } from "./model";

/**
 * Jobs: idle → pending → (queued →) running → completed | failed, and on a stop request
 * pending_stoppage → stopping → stopped. Leaving the queue is not timed: a queued job starts
 * the moment its cluster is ready and has a free slot. A job's running time is its package's
 * `run.seconds` fixture.
 */

/** Simulated seconds of each timed step (`--speed N` divides them); the service documents none. */
export const JOB_SECONDS = {
  /** idle → pending */
  idle: 1,
  /** pending → queued or running */
  pending: 2,
  /** pending_stoppage → stopping */
  pendingStoppage: 1,
  /** stopping → stopped */
  stopping: 2,
} as const;

const JOBS_BY_CLUSTER = Symbol("jobs by cluster");

function indexJobsByCluster(jobs: readonly JobRow[]): Map<number, JobRow[]> {
  const index = new Map<number, JobRow[]>();
  for (const job of jobs) {
    const onCluster = index.get(job.clusterId);
    if (onCluster === undefined) index.set(job.clusterId, [job]);
    else onCluster.push(job);
  }
  return index;
}

/** Jobs ever run on the cluster, oldest first. */
export function jobsOn(state: LifecycleState, clusterId: number): readonly JobRow[] {
  return state.once(JOBS_BY_CLUSTER, () => indexJobsByCluster(state.rows(JOBS))).get(clusterId) ?? [];
}

export function hasUnfinishedJobsOn(state: LifecycleState, clusterId: number): boolean {
  return jobsOn(state, clusterId).some((job) => !isFinished(job));
}

function clusterOf(state: LifecycleState, job: JobRow): ClusterFacts | undefined {
  return clusterFacts(state.store, job.accountId, job.clusterId);
}

function hasFreeSlot(state: LifecycleState, cluster: ClusterFacts): boolean {
  return jobsOn(state, cluster.id).filter(holdsSlot).length < capacityOf(cluster);
}

function startJob(state: LifecycleState, job: JobRow, cluster: ClusterFacts, at: number): void {
  setJobStatus(state.store, job, "running", at);
  jobStartedOn(state.store, cluster, at);
}

/** Starts the cluster's queued jobs, first queued first, while it has free slots. */
export function startQueuedJobs(state: LifecycleState, cluster: ClusterFacts, at: number): void {
  if (!isReady(cluster)) return;
  const queued = jobsOn(state, cluster.id)
    .filter((job) => job.status === "queued")
    .sort((a, b) => a.statusSince.localeCompare(b.statusSince) || a.id - b.id);
  for (const job of queued) {
    if (!hasFreeSlot(state, cluster)) return;
    startJob(state, job, cluster, at);
  }
}

/** Asks a job to stop; one that has finished or is already stopping is left as it is. */
export function stopJob(store: Store, job: JobRow, at: number): void {
  if (isFinished(job) || isStopping(job)) return;
  setJobStatus(store, job, "pending_stoppage", at);
}

/** Asks every job still on the cluster to stop, as terminating it does. */
export function stopJobsOn(state: LifecycleState, clusterId: number, at: number): void {
  for (const job of jobsOn(state, clusterId)) stopJob(state.store, job, at);
}

/** The cluster hears of the end of its job; a freed slot is taken. */
function finish(state: LifecycleState, job: JobRow, status: "completed" | "failed" | "stopped", at: number): void {
  setJobStatus(state.store, job, status, at);
  const cluster = clusterOf(state, job);
  if (cluster === undefined) return;
  jobEndedOn(state.store, cluster, at);
  startQueuedJobs(state, cluster, at);
}

function leavePending(state: LifecycleState, job: JobRow, at: number): void {
  const cluster = clusterOf(state, job);
  if (cluster !== undefined && isReady(cluster) && hasFreeSlot(state, cluster)) startJob(state, job, cluster, at);
  else setJobStatus(state.store, job, "queued", at);
}

function transition(job: JobRow, at: number, apply: (at: number) => void): Due {
  return { at, id: job.id, apply };
}

function nextJobTransition(state: LifecycleState, job: JobRow): Due | undefined {
  // Most jobs have finished: skip them before parsing any timestamp.
  if (isFinished(job) || job.status === "queued") return undefined;
  const since = Date.parse(job.statusSince);
  switch (job.status) {
    case "idle":
      return transition(job, since + state.duration(JOB_SECONDS.idle), (at) => setJobStatus(state.store, job, "pending", at));
    case "pending":
      return transition(job, since + state.duration(JOB_SECONDS.pending), (at) => leavePending(state, job, at));
    case "running":
      return transition(job, since + state.duration(job.run.seconds), (at) => finish(state, job, job.run.outcome, at));
    case "pending_stoppage":
      return transition(job, since + state.duration(JOB_SECONDS.pendingStoppage), (at) => setJobStatus(state.store, job, "stopping", at));
    case "stopping":
      return transition(job, since + state.duration(JOB_SECONDS.stopping), (at) => finish(state, job, "stopped", at));
    default:
      return undefined;
  }
}

/** After clusters at one instant, so a job sees its cluster's new state. */
export const jobLifecycle: AreaLifecycle = {
  rank: 1,
  earliest: (state) => earliestOf(state.rows(JOBS), (job) => nextJobTransition(state, job)),
};
