import { setClusterStatus, type ClusterRow, type ClusterStatus } from "../model/clusters";
import { isFinished } from "../model/jobs";
import { LIFECYCLE_SECONDS } from "./durations";
import { startQueuedJobs, stopJob } from "./jobs";
import type { LifecycleState, Transition } from "./state";

/**
 * Clusters: pending → creating → available; scaling → available after a change of nodes;
 * available → idle once no job has run for a while, and back to available when a job starts;
 * pending_terminate → terminating → terminated, asked for or after being idle too long.
 */

const SECONDS = LIFECYCLE_SECONDS.cluster;
const CLUSTER_RANK = 0;

function hasUnfinishedJobs(state: LifecycleState, cluster: ClusterRow): boolean {
  return state.jobsOn(cluster.id).some((job) => !isFinished(job));
}

/** Terminating stops every job still on the cluster. */
export function terminateCluster(state: LifecycleState, cluster: ClusterRow, at: number): void {
  setClusterStatus(state.store, cluster, "pending_terminate", at);
  for (const job of state.jobsOn(cluster.id)) stopJob(state.store, job, at);
}

function becomeAvailable(state: LifecycleState, cluster: ClusterRow, at: number): void {
  setClusterStatus(state.store, cluster, "available", at);
  startQueuedJobs(state, cluster, at);
}

function lastJobEnd(cluster: ClusterRow): number {
  return cluster.lastJobEndedAt === null ? -Infinity : Date.parse(cluster.lastJobEndedAt);
}

function transition(cluster: ClusterRow, at: number, apply: (at: number) => void): Transition {
  return { at, rank: CLUSTER_RANK, id: cluster.id, apply };
}

function moveTo(state: LifecycleState, cluster: ClusterRow, at: number, status: ClusterStatus): Transition {
  return transition(cluster, at, (when) => setClusterStatus(state.store, cluster, status, when));
}

function goIdle(state: LifecycleState, cluster: ClusterRow, since: number): Transition | undefined {
  if (hasUnfinishedJobs(state, cluster)) return undefined;
  return moveTo(state, cluster, Math.max(since, lastJobEnd(cluster)) + state.duration(SECONDS.idleAfter), "idle");
}

/**
 * An idle cluster that was given a job waits for it to start rather than terminating under it,
 * and a change of its settings never takes effect before it was made.
 */
function terminateWhenIdle(state: LifecycleState, cluster: ClusterRow): Transition | undefined {
  if (!cluster.terminateOnIdle || cluster.idleSince === null || hasUnfinishedJobs(state, cluster)) return undefined;
  const due = Date.parse(cluster.idleSince) + state.duration(cluster.timeToIdle);
  const at = Math.max(due, lastJobEnd(cluster), Date.parse(cluster.updatedAt));
  return transition(cluster, at, (when) => terminateCluster(state, cluster, when));
}

export function nextClusterTransition(state: LifecycleState, cluster: ClusterRow): Transition | undefined {
  if (cluster.status === "terminated" || cluster.status === "error") return undefined;
  const since = Date.parse(cluster.statusSince);
  switch (cluster.status) {
    case "pending":
      return moveTo(state, cluster, since + state.duration(SECONDS.pending), "creating");
    case "creating":
      return transition(cluster, since + state.duration(SECONDS.creating), (at) => becomeAvailable(state, cluster, at));
    case "scaling":
      return transition(cluster, since + state.duration(SECONDS.scaling), (at) => becomeAvailable(state, cluster, at));
    case "available":
      return goIdle(state, cluster, since);
    case "idle":
      return terminateWhenIdle(state, cluster);
    case "pending_terminate":
      return moveTo(state, cluster, since + state.duration(SECONDS.pendingTerminate), "terminating");
    case "terminating":
      return moveTo(state, cluster, since + state.duration(SECONDS.terminating), "terminated");
    default:
      return undefined;
  }
}
