import { deliveryEndRefusal, type DeliveryEnd, type DeliveryIntervalUnit, type DeliveryStatus } from "../../../contract/deliveries";
import { isoTime } from "../../clock";
import { defineTable, type NewRowPlace, type Row, type Store } from "../../store";
import { connectionFacts, type ConnectionFacts } from "../connections/interface";

/**
 * Deliveries (facts, "Deliveries"): one source connection read into one destination connection
 * every interval. The row keeps what the client set, where the service's set-up stands, the
 * pipeline package and cluster it made for itself, and its run times. There is no update: a
 * delivery is made, runs, and is deleted.
 */

/** One end of a delivery: the connection and what to read or write there. */
export interface DeliveryEndpoint {
  connectionId: number;
  connectionType: string;
  /** Undocumented keys, kept as sent; a destination's target schema is kept as `schema`. */
  properties: Record<string, unknown>;
}

export interface DeliverySettings {
  name: string;
  description: string;
  intervalAmount: number;
  intervalUnit: DeliveryIntervalUnit;
  source: DeliveryEndpoint;
  destination: DeliveryEndpoint;
}

export interface DeliveryRow extends Row, DeliverySettings {
  ownerId: number;
  status: DeliveryStatus;
  /** Why it is disabled; null otherwise. */
  statusMessage: string | null;
  /** When it entered its status: the set-up counts from here. */
  statusSince: string;
  /** The package of its pipeline, made when it is enabled. */
  packageId: number | null;
  /** The cluster it made for its runs, reused while alive. */
  clusterId: number | null;
  runCount: number;
  lastRunAt: string | null;
  /** Null unless enabled. */
  nextRunAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const DELIVERIES = defineTable<DeliveryRow>("deliveries");

export interface NewDelivery extends DeliverySettings, NewRowPlace {
  ownerId: number;
  status?: DeliveryStatus;
  statusMessage?: string | null;
}

/** A delivery as the create makes it: idle until its set-up is done (a fixture may say otherwise). */
export function insertDelivery(store: Store, fields: NewDelivery, atMs = store.clock.now()): DeliveryRow {
  const at = isoTime(atMs);
  return store.insert(DELIVERIES, {
    ...fields,
    status: fields.status ?? "idle",
    statusMessage: fields.statusMessage ?? null,
    statusSince: at,
    packageId: null,
    clusterId: null,
    runCount: 0,
    lastRunAt: null,
    nextRunAt: null,
    createdAt: at,
    updatedAt: at,
  });
}

/** The name of a delivery the create leaves unnamed; the facts say only "auto-generated". */
export function defaultName(source: ConnectionFacts, destination: ConnectionFacts): string {
  return `Delivery from ${source.name} to ${destination.name}`;
}

/**
 * The connection `id` of the account as the delivery's `end`, or the problem with it: missing,
 * of another type than the one sent, or unable to play that end.
 */
export function endpointConnection(store: Store, accountId: number, end: DeliveryEnd, id: number, type?: string): ConnectionFacts | string {
  const facts = connectionFacts(store, accountId, id);
  if (facts === undefined) return `${id} does not name a connection of this account`;
  if (type !== undefined && facts.type !== type) return `names a ${facts.type} connection, not ${type}`;
  return deliveryEndRefusal(end, facts.type) ?? facts;
}

/** Stops the delivery from running, saying why. */
export function disableDelivery(store: Store, delivery: DeliveryRow, reason: string, atMs: number): void {
  const at = isoTime(atMs);
  store.update(DELIVERIES, delivery, { status: "disabled", statusMessage: reason, statusSince: at, nextRunAt: null, updatedAt: at });
}

function endsUsing(delivery: DeliveryRow, connectionId: number): DeliveryEnd[] {
  return (["source", "destination"] as const).filter((end) => delivery[end].connectionId === connectionId);
}

/** A delivery cannot reach a deleted connection: it stops, naming the connection, and stays so. */
export function disableDeliveriesUsing(store: Store, deleted: ConnectionFacts, at: number): void {
  for (const delivery of store.list(DELIVERIES, deleted.accountId)) {
    const ends = endsUsing(delivery, deleted.id);
    if (ends.length === 0 || delivery.status === "disabled") continue;
    const reason = `its ${ends.join(" and ")} connection ${deleted.id} ("${deleted.name}") was deleted`;
    disableDelivery(store, delivery, reason, at);
  }
}
