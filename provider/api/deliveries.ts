/** Deliveries: `{base_url}/deliveries` (facts, "Deliveries"). There is no update. */
import { z } from "zod";
import { SCHEMA_PROPERTY } from "../../contract/deliveries";
import type { ApiRequest } from "../client/http";
import { collection } from "./collection";

const dateTime = z.iso.datetime({ offset: true });

/**
 * The destination's schema is read back as `schema` whichever spelling the service answers with
 * (the create example writes `schema_name`), so the two never differ for a program.
 */
function readSchema(properties: Record<string, unknown>): Record<string, unknown> {
  const { [SCHEMA_PROPERTY.written]: written, ...rest } = properties;
  return written === undefined || SCHEMA_PROPERTY.read in rest ? rest : { ...rest, [SCHEMA_PROPERTY.read]: written };
}

const endpointRecord = z.object({
  connection: z.object({ id: z.number().int(), type: z.string() }),
  properties: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((p) => readSchema(p ?? {})),
});
export type DeliveryEndpointRecord = z.output<typeof endpointRecord>;

export const deliveryRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z
    .string()
    .nullable()
    .transform((d) => d ?? ""),
  status: z.string(),
  /** Not in the documented answer; why the delivery is disabled, when the service says. */
  status_message: z
    .string()
    .nullish()
    .transform((m) => m ?? null),
  interval_amount: z.number().int(),
  interval_unit: z.string(),
  source: endpointRecord,
  destination: endpointRecord,
  /** Not in the documented answer: the package of its pipeline, once set up. */
  package_id: z
    .number()
    .int()
    .nullish()
    .transform((id) => id ?? null),
  owner_id: z.number().int(),
  created_at: dateTime,
  updated_at: dateTime,
  url: z.string(),
});
export type DeliveryRecord = z.output<typeof deliveryRecord>;

/** There is no update: every change replaces the delivery. */
export const deliveries = collection({ path: "/deliveries", record: deliveryRecord, what: "a delivery" });

export const { create: createDelivery, get: getDelivery, delete: deleteDelivery } = deliveries;

/** The first page of the account's deliveries, newest first; follow its `Link` for the rest. */
export const listNewestDeliveriesRequest: ApiRequest = { method: "GET", path: "/deliveries", query: { sort: "created", direction: "desc" } };
