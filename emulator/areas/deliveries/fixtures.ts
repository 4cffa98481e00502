import { z } from "zod";
import {
  DELIVERY_DEFAULTS,
  DELIVERY_INTERVAL_AMOUNT_MIN,
  DELIVERY_INTERVAL_UNITS,
  DELIVERY_STATUSES,
  SCHEMA_PROPERTY,
  type DeliveryEnd,
} from "../../../contract/deliveries";
import { checkUnique, defaultUserId, jsonObject, positiveId, type FixtureAccount } from "../../fixtures/account";
import { fixtureProblem } from "../../fixtures/errors";
import type { Store } from "../../store";
import type { ConnectionFacts } from "../connections/interface";
import { accountFixtures, type AccountItems } from "../area";
import { defaultName, endpointConnection, insertDelivery, type DeliveryEndpoint } from "./model";
import { enableDelivery } from "./runs";

/**
 * `deliveries` of an account, in the API's terms but camel-cased, with the same defaults; each
 * end names a connection of the account by id (its type is the connection's). An `enabled` one
 * has its pipeline package made at the start and runs from then; an `idle` one is set up as a
 * new one is; a `disabled` one never runs.
 */

const DISABLED_MESSAGE = "Disabled.";

const endpointSchema = z.object({
  connectionId: positiveId,
  properties: jsonObject.default({}),
});

const deliverySchema = z.object({
  id: positiveId.optional(),
  name: z.string().min(1).optional(),
  description: z.string().default(DELIVERY_DEFAULTS.description),
  status: z.enum(DELIVERY_STATUSES).default("idle"),
  statusMessage: z.string().min(1).optional(),
  intervalAmount: z.number().int().min(DELIVERY_INTERVAL_AMOUNT_MIN).default(DELIVERY_DEFAULTS.intervalAmount),
  intervalUnit: z.enum(DELIVERY_INTERVAL_UNITS).default(DELIVERY_DEFAULTS.intervalUnit),
  source: endpointSchema,
  destination: endpointSchema,
  ownerId: positiveId.optional(),
});

type DeliveryFixture = z.output<typeof deliverySchema>;

/** Deliveries are numbered by one sequence, as in a single database. */
function checkDeliveries(accounts: readonly AccountItems<DeliveryFixture[]>[], ctx: z.RefinementCtx): void {
  const ids = accounts.flatMap(({ index, items }) =>
    items.flatMap((delivery, j) => (delivery.id === undefined ? [] : [{ value: delivery.id, path: ["accounts", index, "deliveries", j, "id"] }])),
  );
  checkUnique(ctx, ids, "delivery id");
}

/** Fixture deliveries obey the API's rules on connections, so a seeded world is one the API could build. */
function connectionOf(store: Store, account: FixtureAccount, delivery: DeliveryFixture, index: number, end: DeliveryEnd): ConnectionFacts {
  const found = endpointConnection(store, account.id, end, delivery[end].connectionId);
  if (typeof found === "string") throw fixtureProblem(account, `deliveries[${index}].${end}.connectionId`, found);
  return found;
}

/** As a create stores it: a destination's `schema_name` kept as `schema`. */
function endpointOf(end: DeliveryEnd, given: DeliveryFixture[DeliveryEnd], facts: ConnectionFacts): DeliveryEndpoint {
  const { [SCHEMA_PROPERTY.written]: written, ...rest } = given.properties;
  const properties = end === "destination" && written !== undefined ? { [SCHEMA_PROPERTY.read]: written, ...rest } : given.properties;
  return { connectionId: facts.id, connectionType: facts.type, properties };
}

function seedDeliveries(store: Store, account: FixtureAccount, deliveries: DeliveryFixture[]): void {
  const now = store.clock.now();
  deliveries.forEach(({ ownerId, status, statusMessage, ...delivery }, index) => {
    const source = connectionOf(store, account, delivery as DeliveryFixture, index, "source");
    const destination = connectionOf(store, account, delivery as DeliveryFixture, index, "destination");
    const row = insertDelivery(
      store,
      {
        ...delivery,
        name: delivery.name ?? defaultName(source, destination),
        source: endpointOf("source", delivery.source, source),
        destination: endpointOf("destination", delivery.destination, destination),
        accountId: account.id,
        ownerId: ownerId ?? defaultUserId(account),
        status: status === "enabled" ? "idle" : status,
        statusMessage: status === "disabled" ? (statusMessage ?? DISABLED_MESSAGE) : null,
      },
      now,
    );
    if (status === "enabled") enableDelivery(store, row, now);
  });
}

export const deliveryFixtures = accountFixtures({
  field: "deliveries",
  schema: z.array(deliverySchema).default([]),
  check: checkDeliveries,
  seed: seedDeliveries,
});
