import { isoTime } from "../../clock";
import type { Store } from "../../store";
import { CLUSTER_DEFAULTS, CLUSTERS, insertCluster, setClusterStatus, type ClusterFacts, type ClusterRow } from "./model";

/**
 * What other areas may know of clusters and ask of them, without their rows: a read-only view
 * of a cluster (hooks' notifications, jobs' JSON and log, a schedule's choice of cluster), a new
 * cluster for a schedule's or a delivery's run, and what a job's start and end do to its cluster.
 * Every write to a cluster stays in this area.
 */

export type { ClusterFacts, ClusterJobCounts, ClusterStatusChange } from "./model";
export { CLUSTER_STATUS_CHANGED } from "./model";
export { capacityOf, clusterUrl, isEnding, isReady } from "./model";

export function clusterFacts(store: Store, accountId: number, id: number): ClusterFacts | undefined {
  return store.find(CLUSTERS, accountId, id);
}

/** The account's clusters, by id ascending. */
export function clustersOfAccount(store: Store, accountId: number): ClusterFacts[] {
  return store.list(CLUSTERS, accountId);
}

/** What an area that runs jobs chooses of a cluster it needs; the rest is as a client's default. */
export interface ClusterRequest {
  accountId: number;
  ownerId: number;
  name: string;
  description: string;
  nodes: number;
  terminateOnIdle: boolean;
  timeToIdle: number;
  /** The schedule asking, which may reuse the cluster later (`reuse_cluster_strategy` `self`). */
  scheduleId?: number;
}

/** A new cluster, `pending` at `at` as one a client creates, of the default type and region. */
export function requestCluster(store: Store, request: ClusterRequest, at: number): ClusterFacts {
  const { accountId, ownerId, name, description, nodes, terminateOnIdle, timeToIdle, scheduleId } = request;
  const { type, region } = CLUSTER_DEFAULTS;
  const settings = { accountId, ownerId, name, description, type, nodes, region, terminateOnIdle, timeToIdle, status: "pending" as const };
  return insertCluster(store, { ...settings, ...(scheduleId === undefined ? {} : { scheduleId }) }, at);
}

function rowOf(store: Store, cluster: ClusterFacts): ClusterRow | undefined {
  return store.find(CLUSTERS, cluster.accountId, cluster.id);
}

/** A job starting on an idle cluster makes it available again. */
export function jobStartedOn(store: Store, cluster: ClusterFacts, at: number): void {
  const row = rowOf(store, cluster);
  if (row?.status === "idle") setClusterStatus(store, row, "available", at);
}

/** An available cluster counts from the end of its last job before going idle. */
export function jobEndedOn(store: Store, cluster: ClusterFacts, at: number): void {
  const row = rowOf(store, cluster);
  if (row !== undefined) store.update(CLUSTERS, row, { lastJobEndedAt: isoTime(at) });
}
