/**
 * The service's vocabularies (spec 2 and 3; facts "Clusters", "Jobs", "Packages"): what both the
 * provider's response schemas and the emulator's records are made of.
 */

export const CLUSTER_STATUSES = ["pending", "creating", "available", "scaling", "idle", "error", "pending_terminate", "terminating", "terminated"] as const;
export type ClusterStatus = (typeof CLUSTER_STATUSES)[number];

/** A cluster in these states can run jobs. */
export const READY_CLUSTER_STATUSES: readonly ClusterStatus[] = ["available", "idle"];

export const CLUSTER_TYPES = ["production", "sandbox"] as const;
export type ClusterType = (typeof CLUSTER_TYPES)[number];

export const JOB_STATUSES = ["idle", "pending", "queued", "running", "completed", "failed", "pending_stoppage", "stopping", "stopped"] as const;
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

/** The `direction` of a sorted collection (facts, "Common list params"). */
export const SORT_DIRECTIONS = ["asc", "desc"] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** Collection filters that take a status also take this word, for every status. */
export const ANY_STATUS = "all";

/** The kinds of hook (facts, "Hooks"): where a notification goes. */
export const HOOK_TYPES = ["web", "slack", "email", "hipchat", "pagerduty"] as const;
export type HookType = (typeof HOOK_TYPES)[number];

/**
 * The event catalogue (`GET /hook_events`, facts "Hooks"): a hook's `events` name these. A group
 * id (`job`, `cluster`) stands for every event of its group.
 */
export const HOOK_EVENTS = [
  { id: "job", group_name: "Job", name: "All job events" },
  { id: "job.submitted", group_name: "Job", name: "Job submitted" },
  { id: "job.started", group_name: "Job", name: "Job started" },
  { id: "job.stopped", group_name: "Job", name: "Job stopped" },
  { id: "job.completed", group_name: "Job", name: "Job completed" },
  { id: "job.failed", group_name: "Job", name: "Job failed" },
  { id: "cluster", group_name: "Cluster", name: "All cluster events" },
  { id: "cluster.requested", group_name: "Cluster", name: "Cluster requested" },
  { id: "cluster.available", group_name: "Cluster", name: "Cluster available" },
  { id: "cluster.terminated", group_name: "Cluster", name: "Cluster terminated" },
  { id: "cluster.idled", group_name: "Cluster", name: "Cluster idle" },
  { id: "cluster.error", group_name: "Cluster", name: "Cluster error" },
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number]["id"];

export const HOOK_EVENT_IDS: readonly HookEvent[] = HOOK_EVENTS.map((event) => event.id);

/**
 * Settings the service accepts and never returns, per hook type: a client cannot read them back,
 * so it cannot see them drift either.
 */
export const HOOK_SECRET_SETTINGS = {
  web: ["basic_auth_data"],
  slack: ["url"],
  email: [],
  hipchat: ["auth_token"],
  pagerduty: ["service_key"],
} as const satisfies Record<HookType, readonly string[]>;

/** `last_trigger_status` of a hook's event in the ping answer: never triggered, or how the last delivery went. */
export const HOOK_TRIGGER_STATUSES = ["none", "success", "failure"] as const;
export type HookTriggerStatus = (typeof HOOK_TRIGGER_STATUSES)[number];

/** A schedule's `status` (facts, "Schedules"): only an enabled schedule fires on its own. */
export const SCHEDULE_STATUSES = ["enabled", "disabled"] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/**
 * A schedule's `interval_unit`. The input tables list minutes to weeks, while the service reads
 * `months` back and its examples send it; the emulator accepts `months` too (calendar
 * months, counted from `start_at`), so a schedule the service shows can also be written back.
 */
export const SCHEDULE_INTERVAL_UNITS = ["minutes", "hours", "days", "weeks", "months"] as const;
export type ScheduleIntervalUnit = (typeof SCHEDULE_INTERVAL_UNITS)[number];

/** Which cluster a schedule's run goes to: any fitting one, one it created, or always a new one. */
export const SCHEDULE_REUSE_CLUSTER_STRATEGIES = ["any", "self", "none"] as const;
export type ScheduleReuseClusterStrategy = (typeof SCHEDULE_REUSE_CLUSTER_STRATEGIES)[number];

/**
 * A schedule's `last_run_status`, null before its first run. The service documents no values;
 * the emulator says `running` until every job of the run (and its retries) has finished,
 * then the run's outcome, worded as job statuses are.
 */
export const SCHEDULE_RUN_STATUSES = ["running", "completed", "failed", "stopped"] as const;
export type ScheduleRunStatus = (typeof SCHEDULE_RUN_STATUSES)[number];

/**
 * A member's role in an account (facts, "Members"): exactly one owner per account; the owner
 * holds every admin permission and alone may hand ownership over.
 */
export const MEMBER_ROLES = ["owner", "admin", "member"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** The roles a member is invited with or changed between; ownership is only ever handed over. */
export const MANAGED_MEMBER_ROLES = ["member", "admin"] as const satisfies readonly MemberRole[];
export type ManagedMemberRole = (typeof MANAGED_MEMBER_ROLES)[number];

/** The `role` a member or account record shows: the owner shows `admin`, with `owner: true`. */
export const SHOWN_MEMBER_ROLES = ["admin", "member"] as const;
export type ShownMemberRole = (typeof SHOWN_MEMBER_ROLES)[number];
