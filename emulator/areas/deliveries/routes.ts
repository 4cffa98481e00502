import { z } from "zod";
import {
  DELIVERY_DEFAULTS,
  DELIVERY_INTERVAL_AMOUNT_MIN,
  DELIVERY_INTERVAL_UNITS,
  DELIVERY_STATUSES,
  SCHEMA_PROPERTY,
  type DeliveryEnd,
} from "../../../contract/deliveries";
import { invalid, parseBody, readObjectBody } from "../../body";
import { integer, label, nullableText, positiveInteger } from "../../fields";
import { sendJson } from "../../http";
import { sendPage } from "../../pagination";
import { readStatusFilter, readTimeFilter } from "../../query";
import { findOwnRow, type ApiContext, type Route } from "../../routing";
import { sortRecords, type SortKeys } from "../../sorting";
import type { ConnectionFacts } from "../connections/interface";
import { deliveryJson } from "./json";
import { defaultName, DELIVERIES, endpointConnection, insertDelivery, type DeliveryEndpoint, type DeliveryRow } from "./model";
import { retirePipeline } from "./runs";

/**
 * Deliveries of the caller's account (facts, "Deliveries"): listed, read, made and deleted. There
 * is no update, so a PUT is answered 405 like any method a path does not take.
 */

const endpointSchema = z.strictObject({
  connection: z.strictObject({ id: positiveInteger(), type: z.string().min(1, "must not be empty").optional() }),
  properties: z.record(z.string(), z.unknown()).optional(),
});

const createSchema = z.strictObject({
  name: label().nullish(),
  description: nullableText().optional(),
  interval_amount: integer().min(DELIVERY_INTERVAL_AMOUNT_MIN, `must be an integer of at least ${DELIVERY_INTERVAL_AMOUNT_MIN}`).optional(),
  interval_unit: z.enum(DELIVERY_INTERVAL_UNITS).optional(),
  source: endpointSchema,
  destination: endpointSchema,
});

type CreateBody = z.output<typeof createSchema>;
type EndpointBody = z.output<typeof endpointSchema>;

/** Both ends' connections, or 422 naming each end whose connection cannot play its part. */
function connectionsOf(ctx: ApiContext, body: CreateBody): Record<DeliveryEnd, ConnectionFacts> {
  const ends = (["source", "destination"] as const).map((end) => {
    const { id, type } = body[end].connection;
    return [end, endpointConnection(ctx.store, ctx.caller.account.id, end, id, type)] as const;
  });
  const problems = ends.flatMap(([end, found]) => (typeof found === "string" ? [`${end}.connection.id ${found}`] : []));
  if (problems.length > 0) throw invalid(problems);
  return Object.fromEntries(ends) as Record<DeliveryEnd, ConnectionFacts>;
}

/** The destination's schema is stored as `schema`, whichever of the two spellings the client sent. */
function storedProperties(end: DeliveryEnd, properties: Record<string, unknown>): Record<string, unknown> {
  if (end !== "destination" || !(SCHEMA_PROPERTY.written in properties)) return { ...properties };
  const { [SCHEMA_PROPERTY.written]: schema, ...rest } = properties;
  if (SCHEMA_PROPERTY.read in rest && rest[SCHEMA_PROPERTY.read] !== schema) {
    throw invalid([
      `destination.properties.${SCHEMA_PROPERTY.written} and destination.properties.${SCHEMA_PROPERTY.read} must not differ: they name the same schema`,
    ]);
  }
  return { ...rest, [SCHEMA_PROPERTY.read]: schema };
}

function endpointOf(end: DeliveryEnd, body: EndpointBody, facts: ConnectionFacts): DeliveryEndpoint {
  return { connectionId: facts.id, connectionType: facts.type, properties: storedProperties(end, body.properties ?? {}) };
}

function sendDelivery(ctx: ApiContext, status: number, delivery: DeliveryRow): void {
  sendJson(ctx.res, status, deliveryJson(delivery, ctx.baseUrl));
}

async function createDelivery(ctx: ApiContext): Promise<void> {
  const body = parseBody(createSchema, await readObjectBody(ctx.req));
  const connections = connectionsOf(ctx, body);
  const delivery = insertDelivery(ctx.store, {
    accountId: ctx.caller.account.id,
    ownerId: ctx.caller.user.id,
    name: body.name ?? defaultName(connections.source, connections.destination),
    description: body.description ?? DELIVERY_DEFAULTS.description,
    intervalAmount: body.interval_amount ?? DELIVERY_DEFAULTS.intervalAmount,
    intervalUnit: body.interval_unit ?? DELIVERY_DEFAULTS.intervalUnit,
    source: endpointOf("source", body.source, connections.source),
    destination: endpointOf("destination", body.destination, connections.destination),
  });
  sendDelivery(ctx, 201, delivery);
}

const listSortKeys: SortKeys<DeliveryRow> = {
  created: (delivery) => delivery.createdAt,
  updated: (delivery) => delivery.updatedAt,
};

/** Newest first unless asked otherwise; `since` keeps those updated at or after it (facts, section 0). */
function listDeliveries(ctx: ApiContext): void {
  const status = readStatusFilter(ctx.query, DELIVERY_STATUSES);
  const since = readTimeFilter(ctx.query, "since");
  const deliveries = ctx.store
    .list(DELIVERIES, ctx.caller.account.id)
    .filter((d) => (status === undefined || d.status === status) && (since === undefined || Date.parse(d.updatedAt) >= since));
  sendPage(ctx, sortRecords(deliveries, ctx.query, listSortKeys, "desc"), (delivery) => deliveryJson(delivery, ctx.baseUrl));
}

function getDelivery(ctx: ApiContext): void {
  sendDelivery(ctx, 200, findOwnRow(ctx, DELIVERIES));
}

/** A hard delete, answered with the delivery as it was; its pipeline package is archived. */
function deleteDelivery(ctx: ApiContext): void {
  const delivery = ctx.store.remove(DELIVERIES, findOwnRow(ctx, DELIVERIES));
  retirePipeline(ctx.store, delivery, ctx.store.clock.now());
  sendDelivery(ctx, 200, delivery);
}

export const deliveriesRoutes: readonly Route[] = [
  { pattern: /^\/deliveries$/, methods: { GET: listDeliveries, POST: createDelivery } },
  { pattern: /^\/deliveries\/([^/]+)$/, methods: { GET: getDelivery, DELETE: deleteDelivery } },
];
