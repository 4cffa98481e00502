import { z } from "zod";
import { declareResource } from "../shared/declaration";
import type { ExportDeclaration } from "../shared/exported";
import type { RecoverDeclaration } from "../shared/recovery";
import { resourceClass } from "../shared/resource-class";
import { clusterWatcherRecord, fields, type ClusterWatcherArgs, type ClusterWatcherOutputs } from "./fields";
import { clusterWatcherProvider, findWatch } from "./provider";

export type { ClusterWatcherArgs, ClusterWatcherOutputs } from "./fields";

/** A cluster as its listing gives it: what an export needs to ask for its watchers. */
const listedCluster = z.object({ id: z.number().int(), name: z.string().nullish() }).loose();

/**
 * Exporting watchers: every cluster of the account is listed, and its watchers read; the API
 * key's user's watch of it is a watcher of the program (a cluster they made they watch from the
 * start). Clusters are not exported, so the program names each by its id.
 */
const clusterWatcherExport: ExportDeclaration = {
  listing: { method: "GET", path: "/clusters", query: { direction: "asc", limit: 100 } },
  item: listedCluster,
  name: (cluster) => `watch ${cluster.name ?? `cluster ${cluster.id}`}`,
  complete: (request, cluster) => findWatch(request, { clusterId: cluster.id }).then(([watch]) => watch ?? { id: cluster.id, notWatched: true }),
  unrepresentable: (record) => (record.notWatched === true ? "the API key's user does not watch this cluster" : undefined),
};

/** Recovering watchers: the settings' user watching the cluster is the watch, whenever it began. */
const clusterWatcherRecover: RecoverDeclaration = { by: "its cluster and the API key's user", find: findWatch };

export const clusterWatcherResource = declareResource({
  kind: "ClusterWatcher",
  description:
    "The API key's user watching a cluster: the service tells them, through their notifications, when it becomes available, terminates or fails. Its maker watches a cluster from the start; destroying the watcher stops the watching either way.",
  provider: clusterWatcherProvider,
  recover: clusterWatcherRecover,
  export: clusterWatcherExport,
  resourceInputs: [{ path: "clusterId", kind: "Cluster" }],
  fields,
  record: clusterWatcherRecord,
  secrets: [],
  deleteBeforeReplace: true,
  oneFromExample: true,
  importedBy: "the id of the cluster watched",
  example: { clusterId: 201 },
});

/** The API key's user watching a cluster; see the reference page for ClusterWatcher. */
export const ClusterWatcher = resourceClass<ClusterWatcherArgs, ClusterWatcherOutputs>(clusterWatcherResource);
export type ClusterWatcher = InstanceType<typeof ClusterWatcher>;
