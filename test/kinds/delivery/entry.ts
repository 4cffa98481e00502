/** Delivery in the tests: a source connection delivered into a destination every interval, through a pipeline the service sets up. */
import { BUCKET, DATABASE } from "../../support/soak-account";
import { badInput, type KindTests, presentByName, referenceExample, soakName, tableOfTheAccount } from "../kind-tests";

const DELIVERY = {
  source: { connection: { id: 306, type: "salesforce" } },
  destination: { connection: { id: 301, type: "redshift" }, properties: { schema: "crm" } },
};

const rows = tableOfTheAccount("deliveries");
const name = soakName("delivery");

export const delivery: KindTests = {
  rows,
  made: { rows, id: (row) => String(row.id) },
  exampleInputs: () => referenceExample("Delivery"),
  replacingChange: { name: "crm to warehouse, renamed" },
  oldObject: "deleted",
  forcedReplacement: "new object",
  soak: {
    count: 1,
    name,
    // Weekly: it runs once when the service has set it up and not again within a cycle.
    args: (i) => ({
      name: name(i),
      interval: { amount: 1, unit: "weeks" },
      source: { connection: { id: DATABASE.id, type: DATABASE.type }, properties: { table: `soak_delivery_${i}` } },
      destination: { connection: { id: BUCKET.id, type: BUCKET.type }, properties: { path: `soak/delivery-${i}/` } },
    }),
    object: (r) => ({ ...presentByName(r), status: r.status }),
    leftover: (r) => `delivery ${r.id} (${r.name}) still exists`,
    // Its cluster outlives it (it ends itself when idle), and its pipeline is archived when it is deleted.
    serviceMade: (r) => [
      ...(r.packageId != null ? [{ kind: "Package" as const, id: r.packageId }] : []),
      ...(r.clusterId != null ? [{ kind: "Cluster" as const, id: r.clusterId }] : []),
    ],
  },
  badInputs: [
    badInput("connection without id", "source.connection.id", { ...DELIVERY, source: { connection: { type: "salesforce" } } }),
    badInput("missing source", "source", { destination: DELIVERY.destination }),
    badInput("missing destination", "destination", { source: DELIVERY.source }),
    badInput("destination that cannot be written", "destination.connection.type", {
      ...DELIVERY,
      destination: { connection: { id: 306, type: "salesforce" } },
    }),
    badInput("interval unit not in the list", "interval.unit", { ...DELIVERY, interval: { amount: 1, unit: "fortnights" } }),
    badInput("interval amount not a positive integer", "interval.amount", { ...DELIVERY, interval: { amount: 0, unit: "days" } }),
    badInput("fractional interval amount", "interval.amount", { ...DELIVERY, interval: { amount: 2.5, unit: "days" } }),
    badInput("interval without a unit", "interval.unit", { ...DELIVERY, interval: { amount: 1 } }),
    badInput("schema and schema_name that differ", "destination.properties.schema_name", {
      ...DELIVERY,
      destination: { ...DELIVERY.destination, properties: { schema: "crm", schema_name: "sales" } },
    }),
  ],
};
