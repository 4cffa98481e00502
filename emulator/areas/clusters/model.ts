import { CLUSTER_TIME_TO_IDLE_SECONDS, SANDBOX_CLUSTER_NODES } from "../../../contract/limits";
import { ENDING_CLUSTER_STATUSES, READY_CLUSTER_STATUSES, type ClusterStatus, type ClusterType } from "../../../contract/vocabularies";
import { isoTime } from "../../clock";
import { webAppUrl } from "../../routing";
import { defineTable, type NewRowPlace, type Row, type Store } from "../../store";
import { announce, defineTopic } from "../../topics";
import { creatorWatching, type WatchedRow } from "../../watchers";

/** Clusters run jobs; their states are those the service's documentation lists. */

/** What a client chooses about a cluster. */
export interface ClusterSettings {
  name: string;
  description: string;
  type: ClusterType;
  nodes: number;
  region: string;
  terminateOnIdle: boolean;
  /** Seconds an idle cluster waits before terminating itself, when terminateOnIdle is set. */
  timeToIdle: number;
}

/** What a cluster is given when neither the client nor a fixture says (facts, "Clusters"). */
export const CLUSTER_DEFAULTS = {
  type: "production",
  region: "us-east-1",
  terminateOnIdle: false,
  timeToIdle: CLUSTER_TIME_TO_IDLE_SECONDS.default,
} as const satisfies Partial<ClusterSettings>;

export interface ClusterRow extends Row, ClusterSettings, WatchedRow {
  ownerId: number;
  status: ClusterStatus;
  /** When the cluster entered its status: every timed transition counts from here. */
  statusSince: string;
  createdAt: string;
  updatedAt: string;
  availableSince: string | null;
  idleSince: string | null;
  terminatedAt: string | null;
  /** When the last of its jobs ended; an available cluster goes idle counting from here. */
  lastJobEndedAt: string | null;
  /** The schedule that created it, which may reuse it (`reuse_cluster_strategy` `self`). */
  scheduleId?: number;
}

export const CLUSTERS = defineTable<ClusterRow>("clusters");

/** A cluster as other areas see it. */
export type ClusterFacts = Readonly<
  Pick<ClusterRow, "id" | "accountId" | "ownerId" | "name" | "status" | "type" | "nodes" | "region" | "scheduleId" | "createdAt" | "updatedAt">
>;

/** A cluster's status set, or its first (`previous` null), at `at`: told to whoever hears `CLUSTER_STATUS_CHANGED`. */
export interface ClusterStatusChange {
  subject: "cluster";
  row: ClusterFacts;
  previous: ClusterStatus | null;
  at: number;
}

/** Heard inside the request or the lifecycle step that made the change. */
export const CLUSTER_STATUS_CHANGED = defineTopic<ClusterStatusChange>("cluster status");

/** Ready to run jobs (facts, "Clusters"). */
export function isReady(cluster: Pick<ClusterRow, "status">): boolean {
  return READY_CLUSTER_STATUSES.includes(cluster.status);
}

/** On its way out or gone: it takes no jobs and no changes. */
export function isEnding(cluster: Pick<ClusterRow, "status">): boolean {
  return ENDING_CLUSTER_STATUSES.includes(cluster.status);
}

/** Jobs it runs at once: one per node, and a sandbox has its one node. */
export function capacityOf(cluster: Pick<ClusterRow, "type" | "nodes">): number {
  return cluster.type === "sandbox" ? SANDBOX_CLUSTER_NODES : cluster.nodes;
}

/** The timestamps each status implies, so they can never disagree with the status. */
function statusTimestamps(cluster: ClusterRow, status: ClusterStatus, at: string): Partial<ClusterRow> {
  const changes: Partial<ClusterRow> = { idleSince: status === "idle" ? (cluster.idleSince ?? at) : null };
  if (status === "available" && !isReady(cluster)) changes.availableSince = at;
  if (status === "terminated") changes.terminatedAt = at;
  return changes;
}

export function setClusterStatus(store: Store, cluster: ClusterRow, status: ClusterStatus, atMs: number): void {
  const at = isoTime(atMs);
  const previous = cluster.status;
  store.update(CLUSTERS, cluster, { ...statusTimestamps(cluster, status, at), status, statusSince: at, updatedAt: at });
  announce(store, CLUSTER_STATUS_CHANGED, { subject: "cluster", row: cluster, previous, at: atMs });
}

export interface NewCluster extends ClusterSettings, NewRowPlace {
  ownerId: number;
  /** `pending` when a client creates it; a fixture's cluster starts settled. */
  status: ClusterStatus;
  scheduleId?: number;
}

/** A cluster entering `status` at `atMs` (now by default), with the timestamps that status implies. */
export function insertCluster(store: Store, fields: NewCluster, atMs = store.clock.now()): ClusterRow {
  const now = isoTime(atMs);
  const cluster = store.insert(CLUSTERS, {
    ...fields,
    statusSince: now,
    createdAt: now,
    updatedAt: now,
    availableSince: isReady(fields) ? now : null,
    idleSince: fields.status === "idle" ? now : null,
    terminatedAt: fields.status === "terminated" ? now : null,
    lastJobEndedAt: null,
    watchers: creatorWatching(fields.ownerId, atMs),
  });
  announce(store, CLUSTER_STATUS_CHANGED, { subject: "cluster", row: cluster, previous: null, at: atMs });
  return cluster;
}

export interface ClusterJobCounts {
  running: number;
  queued: number;
}

export const NO_JOBS: ClusterJobCounts = { running: 0, queued: 0 };

export function clusterUrl(baseUrl: string, id: number): string {
  return `${baseUrl}/clusters/${id}`;
}

/** The service's JSON for a cluster (fields from the facts, "Clusters"). */
export function clusterJson(cluster: ClusterRow, counts: ClusterJobCounts, baseUrl: string): Record<string, unknown> {
  return {
    id: cluster.id,
    name: cluster.name,
    description: cluster.description,
    status: cluster.status,
    type: cluster.type,
    nodes: cluster.nodes,
    region: cluster.region,
    terminate_on_idle: cluster.terminateOnIdle,
    time_to_idle: cluster.timeToIdle,
    created_at: cluster.createdAt,
    updated_at: cluster.updatedAt,
    available_since: cluster.availableSince,
    idle_since: cluster.idleSince,
    terminated_at: cluster.terminatedAt,
    running_jobs_count: counts.running,
    queued_jobs_count: counts.queued,
    owner_id: cluster.ownerId,
    url: clusterUrl(baseUrl, cluster.id),
    html_url: `${webAppUrl(baseUrl)}/clusters/${cluster.id}`,
  };
}
