/**
 * ClusterWatcher in the tests: the key's user watching a cluster another user made (whose maker
 * watches it from the start), one row per cluster watched.
 */
import { TEST_USER_ID } from "../../support/service";
import { WATCHED_CLUSTER } from "../../support/soak-account";
import {
  badInput,
  type KindTests,
  NONE_MADE_BY_THE_SERVICE,
  referenceExample,
  soakName,
  type StateDump,
  type StateRow,
  tableOfTheAccount,
} from "../kind-tests";

type WatchedCluster = StateRow & { ownerId?: number; watchers?: Array<{ userId: number }> };

/** The key's user's watches of clusters another user made, by cluster. */
function rows(state: StateDump): StateRow[] {
  return (tableOfTheAccount("clusters")(state) as WatchedCluster[])
    .filter((cluster) => cluster.ownerId !== TEST_USER_ID)
    .flatMap((cluster) => ((cluster.watchers ?? []).some((watcher) => watcher.userId === TEST_USER_ID) ? [{ id: cluster.id, name: cluster.name }] : []));
}

export const clusterWatcher: KindTests = {
  rows,
  made: { rows, id: (row) => String(row.id) },
  exampleInputs: () => referenceExample("ClusterWatcher"),
  replacingChange: { clusterId: 202 },
  oldObject: "deleted",
  // The watch's id is its cluster's: the replacement takes the watch over, and the original's delete leaves it in place.
  forcedReplacement: { sameId: (id) => [`GET /clusters/${id}/watchers`] },
  soak: {
    count: 1,
    name: soakName("watcher"),
    args: () => ({ clusterId: WATCHED_CLUSTER.id }),
    object: (r) => ({ id: String(r.id), owner: `watch of cluster ${r.id}`, live: true }),
    leftover: (r) => `the stack's user still watches cluster ${r.id} (${r.name})`,
    serviceMade: NONE_MADE_BY_THE_SERVICE,
  },
  badInputs: [
    badInput("cluster id not a number", "clusterId", { clusterId: "production" }),
    badInput("missing cluster", "clusterId", {}),
    badInput("cluster id zero", "clusterId", { clusterId: 0 }),
    badInput("cluster id with a fraction", "clusterId", { clusterId: 2.5 }),
    badInput("the watcher given", "userId", { clusterId: 201, userId: 71 }),
  ],
};
