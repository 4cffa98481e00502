import { z } from "zod";
import { CLUSTER_NODES } from "../../../contract/limits";
import { CLUSTER_TYPES, READY_CLUSTER_STATUSES, type ClusterStatus } from "../../../contract/vocabularies";
import { defaultUserId, positiveId, type FixtureAccount } from "../../fixtures/account";
import type { Store } from "../../store";
import { accountFixtures } from "../area";
import { CLUSTER_DEFAULTS, CLUSTERS, insertCluster } from "./model";

/** `clusters` of an account. They start settled: ready to run jobs, or already gone. */

const SETTLED_STATUSES: readonly ClusterStatus[] = [...READY_CLUSTER_STATUSES, "terminated"];

const clusterSchema = z.object({
  id: positiveId.optional(),
  name: z.string().min(1),
  description: z.string().default(""),
  type: z.enum(CLUSTER_TYPES).default(CLUSTER_DEFAULTS.type),
  nodes: z.number().int().min(CLUSTER_NODES.min).max(CLUSTER_NODES.max).default(CLUSTER_NODES.min),
  status: z.enum(SETTLED_STATUSES).default("available"),
  region: z.string().default(CLUSTER_DEFAULTS.region),
  terminateOnIdle: z.boolean().default(CLUSTER_DEFAULTS.terminateOnIdle),
  timeToIdle: z.number().int().positive().default(CLUSTER_DEFAULTS.timeToIdle),
  ownerId: positiveId.optional(),
  /** Users who watch the cluster besides its maker, who watches it from the start. */
  watcherIds: z.array(positiveId).default([]),
});

type ClusterFixture = z.output<typeof clusterSchema>;

function seedClusters(store: Store, account: FixtureAccount, clusters: ClusterFixture[]): void {
  for (const { ownerId, watcherIds, ...fixture } of clusters) {
    const cluster = insertCluster(store, { ...fixture, accountId: account.id, ownerId: ownerId ?? defaultUserId(account) });
    const since = cluster.createdAt;
    const watchers = [...(cluster.watchers ?? []), ...watcherIds.filter((userId) => userId !== cluster.ownerId).map((userId) => ({ userId, since }))];
    store.update(CLUSTERS, cluster, { watchers });
  }
}

export const clusterFixtures = accountFixtures({
  field: "clusters",
  schema: z.array(clusterSchema).default([]),
  seed: seedClusters,
});
