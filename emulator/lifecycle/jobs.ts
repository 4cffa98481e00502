import { isoTime } from "../clock";
import { capacityOf, CLUSTERS, isReady, setClusterStatus, type ClusterRow } from "../model/clusters";
import { holdsSlot, isFinished, isStopping, setJobStatus, type JobRow } from "../model/jobs";
import type { Store } from "../store";
import { LIFECYCLE_SECONDS } from "./durations";
import type { LifecycleState, Transition } from "./state";

/**
 * Jobs: idle → pending → (queued →) running → completed | failed, and on a stop request
 * pending_stoppage → stopping → stopped. Leaving the queue is not timed: a queued job starts
 * the moment its cluster is ready and has a free slot.
 */

const SECONDS = LIFECYCLE_SECONDS.job;
const JOB_RANK = 1;

function hasFreeSlot(state: LifecycleState, cluster: ClusterRow): boolean {
  return state.jobsOn(cluster.id).filter(holdsSlot).length < capacityOf(cluster);
}

/** A job starting on an idle cluster makes it available again. */
function startJob(state: LifecycleState, job: JobRow, cluster: ClusterRow, at: number): void {
  setJobStatus(state.store, job, "running", at);
  if (cluster.status === "idle") setClusterStatus(state.store, cluster, "available", at);
}

/** Starts the cluster's queued jobs, first queued first, while it has free slots. */
export function startQueuedJobs(state: LifecycleState, cluster: ClusterRow, at: number): void {
  if (!isReady(cluster)) return;
  const queued = state.jobsOn(cluster.id)
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

/** The cluster counts from the end of its last job before going idle; a freed slot is taken. */
function finish(state: LifecycleState, job: JobRow, status: "completed" | "failed" | "stopped", at: number): void {
  setJobStatus(state.store, job, status, at);
  const cluster = state.clusterOf(job);
  if (cluster === undefined) return;
  state.store.update(CLUSTERS, cluster, { lastJobEndedAt: isoTime(at) });
  startQueuedJobs(state, cluster, at);
}

function leavePending(state: LifecycleState, job: JobRow, at: number): void {
  const cluster = state.clusterOf(job);
  if (cluster !== undefined && isReady(cluster) && hasFreeSlot(state, cluster)) startJob(state, job, cluster, at);
  else setJobStatus(state.store, job, "queued", at);
}

function transition(job: JobRow, at: number, apply: (at: number) => void): Transition {
  return { at, rank: JOB_RANK, id: job.id, apply };
}

export function nextJobTransition(state: LifecycleState, job: JobRow): Transition | undefined {
  // Most jobs have finished: skip them before parsing any timestamp.
  if (isFinished(job) || job.status === "queued") return undefined;
  const since = Date.parse(job.statusSince);
  switch (job.status) {
    case "idle":
      return transition(job, since + state.duration(SECONDS.idle), (at) => setJobStatus(state.store, job, "pending", at));
    case "pending":
      return transition(job, since + state.duration(SECONDS.pending), (at) => leavePending(state, job, at));
    case "running":
      return transition(job, since + state.duration(job.run.seconds), (at) => finish(state, job, job.run.outcome, at));
    case "pending_stoppage":
      return transition(job, since + state.duration(SECONDS.pendingStoppage), (at) => setJobStatus(state.store, job, "stopping", at));
    case "stopping":
      return transition(job, since + state.duration(SECONDS.stopping), (at) => finish(state, job, "stopped", at));
    default:
      return undefined;
  }
}
