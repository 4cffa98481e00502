import { CONNECTION_KINDS, CONNECTION_TYPE_RULES, type ConnectionKind } from "./connection-types";

/**
 * What the service refuses in a request, stated so a client can check it before sending: the
 * emulator enforces exactly these values, and a client that checks them first turns a
 * round trip and an error answer into a message at preview. Name lengths are in `text.ts`.
 * Values the spec shows (section 8) say so; the others are the emulator's choices where
 * the spec says "not shown".
 */

/** Largest request body, in bytes; a larger one is answered 413 without being read. */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

/**
 * How deep arrays and objects may nest in a request body; deeper is answered 400. No valid
 * request comes near it; the bound keeps a hostile body from overflowing a recursive reader.
 */
export const MAX_JSON_NESTING = 64;

/**
 * A record id as text, in a path or a query: digits, no leading zero, at most 15 of them so it
 * stays a safe integer. Anything else names no record (404 in a path, 400 in a query).
 */
export const RECORD_ID_TEXT = /^[1-9]\d{0,14}$/;

/** `offset` and `limit` of every collection (spec section 8). */
export const PAGE_LIMIT = { default: 20, min: 1, max: 100 } as const;
export const PAGE_OFFSET_MIN = 0;

/** A cluster's `nodes`, as create and update accept them (facts, "Clusters"). */
export const CLUSTER_NODES = { min: 1, max: 100 } as const;

/** A sandbox cluster has exactly this many nodes. */
export const SANDBOX_CLUSTER_NODES = 1;

/** A cluster's `time_to_idle`, in seconds: how long it may stay idle before terminating itself. */
export const CLUSTER_TIME_TO_IDLE_SECONDS = { min: 300, max: 86_400, default: 3600 } as const;

/** API credits each user may spend per hour (spec section 8); every call costs one. */
export const CREDITS_PER_HOUR = 5000;

/**
 * The connection types by what they are good for (`connection-types.ts` holds each type's
 * attributes): database and cloud-storage connections can join connection groups (spec 2.7),
 * and each listing kind answers its own listing (spec 4.6 to 4.8). A type not listed is of no kind.
 */
export const CONNECTION_TYPES_BY_KIND: Readonly<Record<ConnectionKind, readonly string[]>> = Object.fromEntries(
  CONNECTION_KINDS.map((kind) => [
    kind,
    Object.entries(CONNECTION_TYPE_RULES)
      .filter(([, rule]) => rule.kind === kind)
      .map(([type]) => type),
  ]),
) as unknown as Record<ConnectionKind, readonly string[]>;

export type { ConnectionKind };

/** The kinds that answer a listing of what the connection reaches (spec 4.6 to 4.8). */
export const LISTING_CONNECTION_KINDS = ["web_analytics", "ads_platform", "crm_platform"] as const satisfies readonly ConnectionKind[];
export type ListingKind = (typeof LISTING_CONNECTION_KINDS)[number];

/** The kinds whose connections may be assigned to a connection group (spec 2.7). */
export const GROUPABLE_CONNECTION_KINDS: readonly ConnectionKind[] = ["database", "cloud_storage"];

const KIND_OF_TYPE: ReadonlyMap<string, ConnectionKind> = new Map(
  Object.entries(CONNECTION_TYPES_BY_KIND).flatMap(([kind, types]) => types.map((type) => [type, kind as ConnectionKind] as const)),
);

export function connectionKindOf(type: string): ConnectionKind | undefined {
  return KIND_OF_TYPE.get(type);
}

/** The types whose connections may be assigned to a connection group. */
export const GROUPABLE_CONNECTION_TYPES: readonly string[] = GROUPABLE_CONNECTION_KINDS.flatMap((kind) => CONNECTION_TYPES_BY_KIND[kind]);

export function canJoinGroups(type: string): boolean {
  const kind = connectionKindOf(type);
  return kind !== undefined && GROUPABLE_CONNECTION_KINDS.includes(kind);
}

export function isListingKind(kind: ConnectionKind | undefined): kind is ListingKind {
  return (LISTING_CONNECTION_KINDS as readonly (ConnectionKind | undefined)[]).includes(kind);
}

/** A schedule's `interval_amount`: at least one unit between runs (facts, "Schedules"). */
export const SCHEDULE_INTERVAL_AMOUNT_MIN = 1;

/** A schedule's `auto_retry_attempts`: how often a failed job of a run is run again (facts, "Schedules"). */
export const SCHEDULE_AUTO_RETRY_ATTEMPTS = { min: 1, max: 5, default: 3 } as const;

/**
 * A schedule's `task.time_to_idle`, in seconds (the service does not say the unit; clusters
 * count it in seconds): how long a cluster the schedule creates may stay idle. Its documented
 * default, 60, is below what a client may give a cluster directly, so the lower bound is 1.
 */
export const SCHEDULE_TIME_TO_IDLE_SECONDS = { min: 1, max: CLUSTER_TIME_TO_IDLE_SECONDS.max, default: 60 } as const;
