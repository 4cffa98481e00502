import { z } from "zod";
import { newSettingsMemory } from "../../context";
import { declareResource } from "../shared/declaration";
import type { ExportDeclaration } from "../shared/exported";
import type { RecoverDeclaration } from "../shared/recovery";
import { clusterWatcherRecord, tableOperations } from "./fields";
import { clusterWatcherImplementation, findWatch } from "./implementation";

export type { ClusterWatcherArgs, ClusterWatcherOutputs } from "./fields";

/** A cluster as its listing gives it: what an export needs to ask for its watchers. */
const listedCluster = z.object({ id: z.number().int(), name: z.string().nullish(), owner_id: z.number().int().nullish() }).loose();

/** Why the export leaves a cluster's watch out, if it does: known once its watchers are read (before, the record is the cluster's). */
function notExported(record: Record<string, unknown>): string | undefined {
  if (record.notWatched === true) return "the API key's user does not watch this cluster";
  if (record.user_id !== undefined && record.user_id === record.owner_id)
    return "the cluster's maker watches it from the start: the watch comes with the cluster";
  return undefined;
}

/**
 * Exporting watchers: every cluster of the account is listed, and its watchers read. A watch the
 * API key's user chose is a watcher of the program; the watch a cluster's maker has from the
 * start comes with the cluster, which is not exported either. Clusters are not exported, so the
 * program names each by its id.
 */
const clusterWatcherExport: ExportDeclaration = {
  listing: { method: "GET", path: "/clusters", query: { direction: "asc", limit: 100 } },
  item: listedCluster,
  name: (cluster) => `watch ${cluster.name ?? `cluster ${cluster.id}`}`,
  complete: (settings, cluster) =>
    findWatch(settings, { clusterId: cluster.id }).then(([watch]) =>
      watch === undefined ? { id: cluster.id, notWatched: true } : { ...watch, owner_id: cluster.owner_id },
    ),
  unrepresentable: notExported,
};

/** Recovering watchers: the settings' user watching the cluster is the watch, whenever it began. */
const clusterWatcherRecover: RecoverDeclaration = {
  by: "its cluster and the API key's user",
  find: (request, inputs) => findWatch({ request, learned: newSettingsMemory() }, inputs),
};

export const clusterWatcherDeclaration = declareResource({
  kind: "ClusterWatcher",
  description:
    "The API key's user watching a cluster: the service tells them, through their notifications, when it becomes available, terminates or fails. Its maker watches a cluster from the start; destroying the watcher stops the watching either way.",
  notes: [
    "The watcher is always the API key's user: the service lets a user start and stop only their own watching. Declare the watcher under the provider whose key is the on-call user's, next to the cluster it watches:",
    "",
    "```python",
    "import pulumi",
    "import pulumi_etl as etl",
    "",
    'settings = pulumi.Config("etl")',
    'on_call = etl.Provider("on-call", api_url=settings.require("apiUrl"), account_id=settings.require("accountId"),',
    '                       api_key=pulumi.Config().require_secret("onCallApiKey"))',
    'production = etl.Cluster("production", name="production", nodes=4)',
    'etl.ClusterWatcher("on-call watches production", cluster_id=production.id, opts=pulumi.ResourceOptions(provider=on_call))',
    "```",
    "",
    "Watching twice is one watch, so the create also takes over a watch that already exists (whoever makes a cluster watches it from the start). A replacement never leaves the user unwatched while the stack says they watch: a new `clusterId` is watched before the old cluster's watch ends, and one that names no cluster fails `up` naming `clusterId`, with the old watch and the stack as they were. `pulumi up --replace` of a watcher takes its watch over and leaves it in place; with the `deleteBeforeReplace` option it ends the watch and starts it again. A user watches a cluster once, so two watchers of one cluster under one provider (on the dynamic resources, in the same program) are refused naming both before either watches: at preview, or at `up` when the cluster is made in the same run and its id is not known before, where removing either would end the watch the other records. The resource's id is the cluster's id, which is also what `pulumi import` takes. A watch stopped out of band is dropped from the stack by `pulumi refresh`; `up` then starts it again. Under another user's API key a destroy stops with a message naming both users, rather than ending the recorded user's watch.",
    "",
    "Each watcher is read by one call (the cluster's watchers; a create also asks once per provider process who the API key's user is): the service has no listing of a user's watches, so a refresh of N watchers costs N calls. Clusters are not exported, so `etl-export` writes each watch with its cluster's id; it leaves out the watch a cluster's maker has from the start, which comes with the cluster.",
  ],
  implementation: clusterWatcherImplementation,
  recover: clusterWatcherRecover,
  export: clusterWatcherExport,
  resourceInputs: [{ path: "clusterId", kind: "Cluster" }],
  tableOperations,
  record: clusterWatcherRecord,
  secrets: [],
  oncePer: "clusterId",
  importedBy: "the id of the cluster watched",
  example: { clusterId: 201 },
});
