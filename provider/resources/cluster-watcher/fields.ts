/**
 * ClusterWatcher's fields. Watching is the API key's user's own: the cluster is the one input,
 * and watching another cluster is another watcher, so a change of `clusterId` replaces it.
 */
import { z } from "zod";
import { objectIdInput } from "../shared/check";
import { fieldOperations, takes, type ArgsOf, type Field, type InputsOf, type OutputsOf } from "../shared/fields";
import type { ObjectReference } from "../shared/references";

/** A watcher as the resource knows it: the cluster watched (its id), and the user who watches, as the cluster's watchers list them. */
export const clusterWatcherRecord = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  display_name: z.string(),
});
export type ClusterWatcherRecord = z.output<typeof clusterWatcherRecord>;

const table = {
  /** The cluster to watch: a `Cluster`, or its id as a number or a string. */
  clusterId: {
    program: takes<ObjectReference>(),
    input: objectIdInput(201),
    required: true,
    onChange: "replace",
    refersTo: { to: "cluster", checkedByService: true },
    read: (r) => r.id,
  },
  userId: {
    description: "The id of the user who watches: the user of the API key that made the watcher. Only that user's API key can stop it.",
    read: (r) => r.user_id,
  },
  displayName: { description: "The watcher's name, as the cluster's watchers list it.", read: (r) => r.display_name },
} satisfies Record<string, Field<ClusterWatcherRecord>>;

/** What a program passes. */
export type ClusterWatcherArgs = ArgsOf<typeof table>;

export const tableOperations = fieldOperations<ClusterWatcherRecord, typeof table>(table);

/** A watch is made by watching: there is nothing to adopt by id (`pulumi import` takes the cluster id). */
export type ClusterWatcherInputs = InputsOf<typeof table> & { importId?: undefined };
export type ClusterWatcherOutputs = OutputsOf<typeof table, ClusterWatcherRecord>;
