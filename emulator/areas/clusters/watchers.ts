import { READY_CLUSTER_STATUSES, type ClusterStatus } from "../../../contract/vocabularies";
import type { Store } from "../../store";
import { notifyWatchers, watcherRoute, type WatcherMessage } from "../../watchers";
import { clusterUrl, CLUSTERS, type ClusterRow, type ClusterStatusChange } from "./model";

/**
 * Watchers of a cluster (`emulator/watchers.ts`) are told when it becomes available, is
 * terminated or fails (facts). Available counts when it was created or scaled, not when a job
 * wakes it from idle, as for the `cluster.available` hook event; a cluster a fixture starts
 * settled has told no one.
 */

export const clusterWatcherRoute = watcherRoute({ kind: "cluster", table: CLUSTERS, url: clusterUrl });

const MESSAGES: Partial<Record<ClusterStatus, (name: string) => WatcherMessage>> = {
  available: (name) => ({ title: `Cluster '${name}' available`, body: `The cluster '${name}' is available.` }),
  terminated: (name) => ({ title: `Cluster '${name}' terminated`, body: `The cluster '${name}' was terminated.` }),
  error: (name) => ({ title: `Cluster '${name}' error`, body: `The cluster '${name}' failed and is in error.` }),
};

function isWatchedChange(previous: ClusterStatus | null, status: ClusterStatus): boolean {
  if (previous === null) return false;
  return status !== "available" || !READY_CLUSTER_STATUSES.includes(previous);
}

export function notifyClusterWatchers(store: Store, change: ClusterStatusChange): void {
  const message = MESSAGES[change.row.status];
  if (message === undefined || !isWatchedChange(change.previous, change.row.status)) return;
  // The change shows a view of the record; its watchers are kept on the row itself.
  const cluster: ClusterRow | undefined = store.find(CLUSTERS, change.row.accountId, change.row.id);
  if (cluster !== undefined) notifyWatchers(store, cluster, message(cluster.name), change.at);
}
