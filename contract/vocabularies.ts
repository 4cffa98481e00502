/**
 * The service's vocabularies (spec 2 and 3; facts "Clusters", "Jobs", "Packages"): what both the
 * provider's response schemas and the local service's records are made of.
 */

export const CLUSTER_STATUSES = [
  "pending",
  "creating",
  "available",
  "scaling",
  "idle",
  "error",
  "pending_terminate",
  "terminating",
  "terminated",
] as const;
export type ClusterStatus = (typeof CLUSTER_STATUSES)[number];

/** A cluster in these states can run jobs. */
export const READY_CLUSTER_STATUSES: readonly ClusterStatus[] = ["available", "idle"];

export const CLUSTER_TYPES = ["production", "sandbox"] as const;
export type ClusterType = (typeof CLUSTER_TYPES)[number];

export const JOB_STATUSES = [
  "idle",
  "pending",
  "queued",
  "running",
  "completed",
  "failed",
  "pending_stoppage",
  "stopping",
  "stopped",
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Terminal states: completed is success; failed and stopped are failures. */
export const FINISHED_JOB_STATUSES: readonly JobStatus[] = ["completed", "failed", "stopped"];

export const PACKAGE_STATUSES = ["active", "archived"] as const;
export type PackageStatus = (typeof PACKAGE_STATUSES)[number];

export const VALIDATION_STATUSES = ["running", "completed", "failed"] as const;
export type ValidationStatus = (typeof VALIDATION_STATUSES)[number];

/** On its way out or gone: such a cluster takes no jobs and no changes. */
export const ENDING_CLUSTER_STATUSES: readonly ClusterStatus[] = ["pending_terminate", "terminating", "terminated"];

/** Asked to stop and not stopped yet. */
export const STOPPING_JOB_STATUSES: readonly JobStatus[] = ["pending_stoppage", "stopping"];

/** How a run ends when nobody stops it. */
export const JOB_RUN_OUTCOMES = ["completed", "failed"] as const satisfies readonly JobStatus[];
export type JobRunOutcome = (typeof JOB_RUN_OUTCOMES)[number];

/** The `direction` of a sorted collection (facts, "Common list params"). */
export const SORT_DIRECTIONS = ["asc", "desc"] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** Collection filters that take a status also take this word, for every status. */
export const ANY_STATUS = "all";
