import type { ClusterStatus } from "../../../contract/vocabularies";
import { earliestOf, type AreaLifecycle, type Due, type LifecycleState } from "../../lifecycle/state";
import { hasUnfinishedJobsOn, startQueuedJobs, stopJobsOn } from "../jobs/interface";
import { CLUSTERS, setClusterStatus, type ClusterRow } from "./model";

/**
 * Clusters: pending → creating → available; scaling → available after a change of nodes;
 * available → idle once no job has run for a while, and back to available when a job starts;
 * pending_terminate → terminating → terminated, asked for or after being idle too long.
 */

/**
 * Simulated seconds of each timed step (`--speed N` divides them). The service documents none;
 * they are short enough for a demo and long enough to watch every state.
 */
export const CLUSTER_SECONDS = {
  /** pending → creating */
  pending: 1,
  /** creating → available */
  creating: 20,
  /** scaling → available, after a change of nodes */
  scaling: 10,
  /** available → idle, counted from becoming available or from the end of the last job */
  idleAfter: 60,
  /** pending_terminate → terminating */
  pendingTerminate: 1,
  /** terminating → terminated */
  terminating: 5,
} as const;

/** Terminating stops every job still on the cluster. */
export function terminateCluster(state: LifecycleState, cluster: ClusterRow, at: number): void {
  setClusterStatus(state.store, cluster, "pending_terminate", at);
  stopJobsOn(state, cluster.id, at);
}

function becomeAvailable(state: LifecycleState, cluster: ClusterRow, at: number): void {
  setClusterStatus(state.store, cluster, "available", at);
  startQueuedJobs(state, cluster, at);
}

function lastJobEnd(cluster: ClusterRow): number {
  return cluster.lastJobEndedAt === null ? -Infinity : Date.parse(cluster.lastJobEndedAt);
}

function transition(cluster: ClusterRow, at: number, apply: (at: number) => void): Due {
  return { at, id: cluster.id, apply };
}

function moveTo(state: LifecycleState, cluster: ClusterRow, at: number, status: ClusterStatus): Due {
  return transition(cluster, at, (when) => setClusterStatus(state.store, cluster, status, when));
}

function goIdle(state: LifecycleState, cluster: ClusterRow, since: number): Due | undefined {
  if (hasUnfinishedJobsOn(state, cluster.id)) return undefined;
  return moveTo(state, cluster, Math.max(since, lastJobEnd(cluster)) + state.duration(CLUSTER_SECONDS.idleAfter), "idle");
}

/**
 * An idle cluster that was given a job waits for it to start rather than terminating under it,
 * and a change of its settings never takes effect before it was made.
 */
function terminateWhenIdle(state: LifecycleState, cluster: ClusterRow): Due | undefined {
  if (!cluster.terminateOnIdle || cluster.idleSince === null || hasUnfinishedJobsOn(state, cluster.id)) return undefined;
  const due = Date.parse(cluster.idleSince) + state.duration(cluster.timeToIdle);
  const at = Math.max(due, lastJobEnd(cluster), Date.parse(cluster.updatedAt));
  return transition(cluster, at, (when) => terminateCluster(state, cluster, when));
}

function nextClusterTransition(state: LifecycleState, cluster: ClusterRow): Due | undefined {
  if (cluster.status === "terminated" || cluster.status === "error") return undefined;
  const since = Date.parse(cluster.statusSince);
  switch (cluster.status) {
    case "pending":
      return moveTo(state, cluster, since + state.duration(CLUSTER_SECONDS.pending), "creating");
    case "creating":
      return transition(cluster, since + state.duration(CLUSTER_SECONDS.creating), (at) => becomeAvailable(state, cluster, at));
    case "scaling":
      return transition(cluster, since + state.duration(CLUSTER_SECONDS.scaling), (at) => becomeAvailable(state, cluster, at));
    case "available":
      return goIdle(state, cluster, since);
    case "idle":
      return terminateWhenIdle(state, cluster);
    case "pending_terminate":
      return moveTo(state, cluster, since + state.duration(CLUSTER_SECONDS.pendingTerminate), "terminating");
    case "terminating":
      return moveTo(state, cluster, since + state.duration(CLUSTER_SECONDS.terminating), "terminated");
    default:
      return undefined;
  }
}

/** First at any instant, so a job moving at the same time sees its cluster's new state. */
export const clusterLifecycle: AreaLifecycle = {
  rank: 0,
  earliest: (state) => earliestOf(state.rows(CLUSTERS), (cluster) => nextClusterTransition(state, cluster)),
};
