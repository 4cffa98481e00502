/**
 * Deliveries (facts, "Deliveries"): a source connection read into a destination connection every
 * interval. What both sides check: the emulator refuses what breaks these rules, and the
 * provider names the same problems at preview.
 */
import type { ConnectionKind } from "./connection-types";
import { connectionKindOf } from "./limits";
import { SCHEDULE_INTERVAL_UNITS } from "./vocabularies";

/** `idle` while the service sets it up, `enabled` once it runs, `disabled` when it cannot run (a connection is gone). */
export const DELIVERY_STATUSES = ["idle", "enabled", "disabled"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The create's input table lists minutes to weeks and the resource `months` too: all are taken, as for schedules. */
export const DELIVERY_INTERVAL_UNITS = SCHEDULE_INTERVAL_UNITS;
export type DeliveryIntervalUnit = (typeof DELIVERY_INTERVAL_UNITS)[number];

export const DELIVERY_INTERVAL_AMOUNT_MIN = 1;

/** What the service gives a field the create leaves out (facts, "Deliveries"). */
export const DELIVERY_DEFAULTS = { description: "", intervalAmount: 1, intervalUnit: "days" } as const;

/** A source may be any connection the service reads; a destination only a database or a cloud storage. */
export const DELIVERY_SOURCE_KINDS: readonly ConnectionKind[] = ["database", "cloud_storage", "web_analytics", "ads_platform", "crm_platform"];
export const DELIVERY_DESTINATION_KINDS: readonly ConnectionKind[] = ["database", "cloud_storage"];

export type DeliveryEnd = "source" | "destination";

/** Whether a connection of `type` can be the delivery's `end`. */
export function canPlayEnd(end: DeliveryEnd, type: string): boolean {
  const kind = connectionKindOf(type);
  return kind !== undefined && (end === "source" ? DELIVERY_SOURCE_KINDS : DELIVERY_DESTINATION_KINDS).includes(kind);
}

/** The rule a connection's type breaks when it cannot be the `end`, worded after the field's name. */
export const DELIVERY_END_RULES: Readonly<Record<DeliveryEnd, string>> = {
  source: "must be the type of a connection the service can read",
  destination: "must be the type of a database or cloud storage connection, which the service can write to",
};

/** Why a connection of `type` cannot be the delivery's `end`, or undefined when it can. */
export function deliveryEndRefusal(end: DeliveryEnd, type: string): string | undefined {
  if (canPlayEnd(end, type)) return undefined;
  return end === "source"
    ? `is a ${type} connection, which cannot be read`
    : `is a ${type} connection, which cannot be written to: a destination must be a database or cloud storage connection`;
}

/**
 * The destination's target schema: the create example writes `schema_name`, the records read
 * `schema` (facts, "Documentation inconsistencies"). Both sides store and compare `schema`.
 */
export const SCHEMA_PROPERTY = { written: "schema_name", read: "schema" } as const;
