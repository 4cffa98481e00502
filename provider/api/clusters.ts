/** Clusters that jobs run on: `{base_url}/clusters` (facts, "Clusters"; not in the spec). */
import { z } from "zod";
import type { ApiRequest } from "../client/http";
import { CLUSTER_STATUSES, READY_CLUSTER_STATUSES, type ClusterType } from "../../contract/vocabularies";
import { collection } from "./collection";

const dateTime = z.iso.datetime({ offset: true });

export { CLUSTER_STATUSES, READY_CLUSTER_STATUSES, type ClusterType };

export const clusterRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z
    .string()
    .nullable()
    .transform((d) => d ?? ""),
  status: z.string(),
  type: z.string(),
  nodes: z.number().int(),
  region: z.string(),
  terminate_on_idle: z.boolean(),
  time_to_idle: z.number().int(),
  created_at: dateTime,
  updated_at: dateTime,
  available_since: dateTime.nullable(),
  idle_since: dateTime.nullable(),
  terminated_at: dateTime.nullable(),
  running_jobs_count: z.number().int(),
  queued_jobs_count: z.number().int(),
  owner_id: z.number().int(),
  url: z.string(),
  html_url: z.string(),
});
export type ClusterRecord = z.output<typeof clusterRecord>;

/** Every field a cluster may have; anything else in a response is undocumented. */
export const CLUSTER_FIELDS: readonly string[] = Object.keys(clusterRecord.shape);

export interface ClusterCreate {
  nodes: number;
  type?: ClusterType;
  name?: string;
  description?: string;
  terminate_on_idle?: boolean;
  /** Seconds. */
  time_to_idle?: number;
  region?: string;
}

/** Type and region are fixed when a cluster is created. */
export type ClusterUpdate = Partial<Omit<ClusterCreate, "type" | "region">>;

export const clusters = collection<typeof clusterRecord, ClusterCreate, ClusterUpdate>({ path: "/clusters", record: clusterRecord, what: "a cluster" });

/** `terminateCluster` starts termination: the cluster answers in `pending_terminate` and ends `terminated`. */
export const { create: createCluster, get: getCluster, update: updateCluster, deleteAnswered: terminateCluster } = clusters;

/** The first page of the account's clusters, newest first, whatever their status. */
export const listNewestClustersRequest: ApiRequest = {
  method: "GET",
  path: "/clusters",
  query: { status: "all", sort: "created", direction: "desc" },
};
