import { isoTime } from "../clock";
import type { AccountFixture } from "../fixtures";
import { defineTable, type Row, type Store } from "../store";
import { webAppUrl } from "./packages";

/** Clusters run jobs; their states are those the service's documentation lists. */

// The interface's own lists, shared with the client so both sides speak one vocabulary.
export { CLUSTER_STATUSES, CLUSTER_TYPES, type ClusterStatus, type ClusterType } from "../../provider/api/clusters";
import type { ClusterStatus, ClusterType } from "../../contract/vocabularies";

export interface ClusterRow extends Row {
  ownerId: number;
  name: string;
  description: string;
  type: ClusterType;
  nodes: number;
  region: string;
  terminateOnIdle: boolean;
  /** Seconds an idle cluster waits before terminating itself, when terminateOnIdle is set. */
  timeToIdle: number;
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
}

export const CLUSTERS = defineTable<ClusterRow>("clusters");

const READY: ReadonlySet<ClusterStatus> = new Set(["available", "idle"]);
const ENDING: ReadonlySet<ClusterStatus> = new Set(["pending_terminate", "terminating", "terminated"]);

/** Ready to run jobs (facts, "Clusters"). */
export function isReady(cluster: ClusterRow): boolean {
  return READY.has(cluster.status);
}

/** On its way out or gone: it takes no jobs and no changes. */
export function isEnding(cluster: ClusterRow): boolean {
  return ENDING.has(cluster.status);
}

/** Jobs it runs at once: one per node, and a sandbox has one node. */
export function capacityOf(cluster: ClusterRow): number {
  return cluster.type === "sandbox" ? 1 : cluster.nodes;
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
  store.update(CLUSTERS, cluster, { ...statusTimestamps(cluster, status, at), status, statusSince: at, updatedAt: at });
}

export function seedClusters(store: Store, account: AccountFixture): void {
  const now = isoTime(store.clock.now());
  for (const fixture of account.clusters) {
    store.insert(CLUSTERS, {
      id: fixture.id,
      accountId: account.id,
      ownerId: fixture.ownerId ?? account.users[0]!.id,
      name: fixture.name,
      description: fixture.description,
      type: fixture.type,
      nodes: fixture.nodes,
      region: fixture.region,
      terminateOnIdle: fixture.terminateOnIdle,
      timeToIdle: fixture.timeToIdle,
      status: fixture.status,
      statusSince: now,
      createdAt: now,
      updatedAt: now,
      availableSince: fixture.status === "terminated" ? null : now,
      idleSince: fixture.status === "idle" ? now : null,
      terminatedAt: fixture.status === "terminated" ? now : null,
      lastJobEndedAt: null,
    });
  }
}

export interface ClusterJobCounts {
  running: number;
  queued: number;
}

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
