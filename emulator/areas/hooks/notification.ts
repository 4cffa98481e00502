import { randomUUID } from "node:crypto";
import type { ClusterStatus, HookEvent, JobStatus } from "../../../contract/vocabularies";
import { isoTime } from "../../clock";
import type { ClusterFacts, ClusterStatusChange } from "../clusters/interface";
import type { JobFacts, JobStatusChange } from "../jobs/interface";
import type { HookRow } from "./model";

/**
 * What a hook is told: the event a status change is, and the JSON notification about it. The
 * facts leave the payload open; this one names the event, the hook, the account and the record,
 * and carries every part of the signature but the salt (`contract/hook-signature.ts`).
 */

/** What hooks hear: a job's or a cluster's status change. */
export type StatusChange = JobStatusChange | ClusterStatusChange;

export interface Notification {
  /** This notification's own id, so a receiver can tell a repeat from a new one. */
  id: string;
  hook_id: number;
  event: HookEvent | "ping";
  /** The web hook's `url`, which the signature covers; null for other types, which are not signed. */
  url: string | null;
  /** The account's slug, as in `{base_url}`. */
  account_id: string;
  /** When the change happened on the service's clock (for a ping, when it was asked for). */
  triggered_at: string;
  object_type: "job" | "cluster" | "hook";
  object: Record<string, unknown>;
}

const JOB_EVENTS: Partial<Record<JobStatus, HookEvent>> = {
  running: "job.started",
  stopped: "job.stopped",
  completed: "job.completed",
  failed: "job.failed",
};

const CLUSTER_EVENTS: Partial<Record<ClusterStatus, HookEvent>> = {
  idle: "cluster.idled",
  terminated: "cluster.terminated",
  error: "cluster.error",
};

/** A new job is submitted; each step after that is the event of the status it reaches, if it has one. */
function jobEvent(previous: JobStatus | null, status: JobStatus): HookEvent | undefined {
  return previous === null ? "job.submitted" : JOB_EVENTS[status];
}

/**
 * A cluster a client asks for is requested (one a fixture starts settled is not); it becomes
 * available when created or scaled, not when a job wakes it from idle.
 */
function clusterEvent(previous: ClusterStatus | null, status: ClusterStatus): HookEvent | undefined {
  if (previous === null) return status === "pending" ? "cluster.requested" : undefined;
  if (status === "available") return previous === "idle" ? undefined : "cluster.available";
  return CLUSTER_EVENTS[status];
}

/** The hook event a status change is, if any; a status set again is no change. */
export function eventOf(change: StatusChange): HookEvent | undefined {
  if (change.previous === change.row.status) return undefined;
  return change.subject === "job" ? jobEvent(change.previous, change.row.status) : clusterEvent(change.previous, change.row.status);
}

/** A notification's `object`: the record's fields by their API names, from the row's fields. */
type FieldNames<T> = Readonly<Record<string, keyof T>>;

const JOB_FIELDS: FieldNames<JobFacts> = {
  id: "id",
  status: "status",
  package_id: "packageId",
  cluster_id: "clusterId",
  owner_id: "ownerId",
  errors: "errors",
};
const JOB_TIMES: FieldNames<JobFacts> = {
  created_at: "createdAt",
  started_at: "startedAt",
  completed_at: "completedAt",
  failed_at: "failedAt",
  updated_at: "updatedAt",
};
const CLUSTER_FIELDS: FieldNames<ClusterFacts> = {
  id: "id",
  name: "name",
  status: "status",
  type: "type",
  nodes: "nodes",
  region: "region",
  owner_id: "ownerId",
};
const CLUSTER_TIMES: FieldNames<ClusterFacts> = { created_at: "createdAt", updated_at: "updatedAt" };

function objectOf<T>(row: T, ...tables: FieldNames<T>[]): Record<string, unknown> {
  return Object.fromEntries(tables.flatMap((table) => Object.entries(table).map(([name, field]) => [name, row[field]])));
}

function notification(hook: HookRow, accountUid: string, at: number, fields: Pick<Notification, "event" | "object_type" | "object">): Notification {
  const url = hook.type === "web" ? String(hook.settings.url) : null;
  return { id: randomUUID(), hook_id: hook.id, url, account_id: accountUid, triggered_at: isoTime(at), ...fields };
}

export function changeNotification(hook: HookRow, accountUid: string, event: HookEvent, change: StatusChange): Notification {
  const object = change.subject === "job" ? objectOf(change.row, JOB_FIELDS, JOB_TIMES) : objectOf(change.row, CLUSTER_FIELDS, CLUSTER_TIMES);
  return notification(hook, accountUid, change.at, { event, object_type: change.subject, object });
}

export function pingNotification(hook: HookRow, accountUid: string, at: number): Notification {
  return notification(hook, accountUid, at, {
    event: "ping",
    object_type: "hook",
    object: { id: hook.id, name: hook.name, type: hook.type, events: hook.events },
  });
}
