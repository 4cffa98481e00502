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
