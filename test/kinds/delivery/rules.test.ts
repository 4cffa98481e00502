/** Delivery's check, bodies and diff: ends checked at preview, the schema's two spellings never a change, every change a replacement. */
import { describe, expect, it } from "vitest";
import type { DeliveryRecord } from "../../../provider/api/deliveries";
import { deliveryRecord } from "../../../provider/api/deliveries";
import { tableOperations, type DeliveryInputs, type DeliveryOutputs } from "../../../provider/resources/delivery/fields";
import { deliveryImplementation } from "../../../provider/resources/delivery/implementation";
import { expectedFailure } from "../check-failure";

const check = (news: Record<string, unknown>) => deliveryImplementation.check({}, news);
const SOURCE = { connection: { id: 306, type: "salesforce" }, properties: { object: "Contact" } };
const DESTINATION = { connection: { id: "301", type: "redshift" }, properties: { schema: "crm" } };
const VALID = { source: SOURCE, destination: DESTINATION };

const parsed = (inputs: Record<string, unknown>) => tableOperations.inputSchema.parse(inputs) as DeliveryInputs;

function record(changes: Partial<DeliveryRecord> = {}): DeliveryRecord {
  return deliveryRecord.parse({
    id: 12,
    name: "Delivery from crm to warehouse",
    description: "",
    status: "enabled",
    status_message: null,
    interval_amount: 1,
    interval_unit: "days",
    source: { connection: { id: 306, type: "salesforce" }, properties: { object: "Contact" } },
    destination: { connection: { id: 301, type: "redshift" }, properties: { schema: "crm" } },
    package_id: 7,
    owner_id: 1,
    created_at: "2026-11-30T00:00:00Z",
    updated_at: "2026-11-30T00:02:00Z",
    url: "https://x/acme/api/deliveries/12",
    ...changes,
  });
}

describe("Delivery check", () => {
  it("takes the schema in both spellings when they agree", async () => {
    const result = await check({ ...VALID, destination: { ...DESTINATION, properties: { schema: "crm", schema_name: "crm" } } });
    expect(result).toMatchObject({ ok: true, inputs: { destination: { properties: { schema: "crm" } } } });
  });

  it("takes a connection id as digits, and the schema in either spelling as `schema`", async () => {
    const result = await check({ ...VALID, destination: { connection: DESTINATION.connection, properties: { schema_name: "crm" } } });
    expect(result).toMatchObject({ ok: true, inputs: { destination: { connection: { id: 301, type: "redshift" }, properties: { schema: "crm" } } } });
  });

  it.each<[Record<string, unknown>, string, string]>([
    [{ destination: DESTINATION }, "source", "source is required"],
    [{ source: SOURCE }, "destination", "destination is required"],
    [{ ...VALID, source: { connection: { type: "salesforce" } } }, "source.connection.id", "source.connection.id is required"],
    [{ ...VALID, source: { connection: { id: 0, type: "salesforce" } } }, "source.connection.id", "must be a positive integer"],
    [
      { ...VALID, destination: { connection: { id: 306, type: "salesforce" } } },
      "destination.connection.type",
      "must be the type of a database or cloud storage connection",
    ],
    [
      { ...VALID, source: { connection: { id: 306, type: "carrier-pigeon" } } },
      "source.connection.type",
      "must be the type of a connection the service can read",
    ],
    [{ ...VALID, interval: { amount: 0, unit: "days" } }, "interval.amount", "interval.amount must be at least 1"],
    [{ ...VALID, interval: { amount: 1.5, unit: "days" } }, "interval.amount", "interval.amount must be an integer"],
    [{ ...VALID, interval: { amount: 1, unit: "years" } }, "interval.unit", 'interval.unit must be one of "minutes", "hours", "days", "weeks", "months"'],
    [{ ...VALID, status: "enabled" }, "status", "status is not an input of this resource"],
    [{ ...VALID, interval: { amount: 1 } }, "interval.unit", "interval.unit is required"],
    [
      { ...VALID, destination: { ...DESTINATION, properties: { schema: "crm", schema_name: "sales" } } },
      "destination.properties.schema_name",
      "destination.properties.schema_name must be the same as destination.properties.schema when both are given",
    ],
  ])("fails %j on %s", async (inputs, property, reason) => {
    const result = await check(inputs);
    expect(!result.ok && result.failures).toContainEqual(expectedFailure(inputs, property, reason));
  });
});

describe("Delivery bodies and diff", () => {
  it("sends the documented defaults and the destination's schema as schema_name", () => {
    expect(tableOperations.createBody(parsed(VALID))).toEqual({
      interval_amount: 1,
      interval_unit: "days",
      source: { connection: { id: 306, type: "salesforce" }, properties: { object: "Contact" } },
      destination: { connection: { id: 301, type: "redshift" }, properties: { schema_name: "crm" } },
    });
  });

  it("sees no change when the service reads the schema back as schema or as schema_name", () => {
    const inputs = parsed(VALID);
    for (const destination of [record().destination, { connection: { id: 301, type: "redshift" }, properties: { schema_name: "crm" } }]) {
      const outputs = tableOperations.outputs(record({ destination: deliveryRecord.shape.destination.parse(destination) }), inputs);
      expect(tableOperations.diff(outputs, inputs).changes).toBe(false);
    }
  });

  it("replaces for any change the service holds, and updates only for timeoutSeconds", () => {
    const outputs: DeliveryOutputs = tableOperations.outputs(record(), parsed(VALID));
    expect(tableOperations.diff(outputs, parsed({ ...VALID, interval: { amount: 2, unit: "days" } }))).toMatchObject({ changes: true, replaces: ["interval"] });
    expect(tableOperations.diff(outputs, parsed({ ...VALID, destination: { ...DESTINATION, properties: { schema: "sales" } } }))).toMatchObject({
      replaces: ["destination"],
    });
    expect(tableOperations.diff(outputs, parsed({ ...VALID, name: "renamed" }))).toMatchObject({ replaces: ["name"] });
    expect(tableOperations.diff(outputs, parsed({ ...VALID, timeoutSeconds: 60 }))).toMatchObject({ changes: true, replaces: [] });
  });
});
