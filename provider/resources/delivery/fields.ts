/**
 * Delivery's fields. The service has no update for deliveries, so every change of what it holds
 * replaces the delivery. Omitted `name` is the service's choice (named after the connections)
 * and not managed. A destination's target schema is `schema` in the program and in what the
 * service reads back, and is sent as `schema_name`, as the service's create example writes it
 * (facts, "Documentation inconsistencies"); given both ways, they must agree. `status`,
 * `statusMessage` and `packageId` move on their own: outputs only. `timeoutSeconds` and
 * `importId` are the provider's own.
 */
import type { ConnectionResource } from "../shared/references";
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { DeliveryEndpointRecord, DeliveryRecord } from "../../api/deliveries";
import {
  DELIVERY_DEFAULTS,
  DELIVERY_INTERVAL_AMOUNT_MIN,
  DELIVERY_INTERVAL_UNITS,
  DELIVERY_END_RULES,
  DELIVERY_STATUSES,
  canPlayEnd,
  SCHEMA_PROPERTY,
  type DeliveryEnd,
  type DeliveryIntervalUnit,
} from "../../../contract/deliveries";
import { importIdField } from "../shared/adopt";
import { isUnknown, labelText, objectIdInput, unlessUnknown } from "../shared/check";
import { fieldOperations, objectRule, takes, output, OUTPUT, type ArgsOf, type Field, type InputsOf, type OutputsOf } from "../shared/fields";

const connectionFields = {
  /** The connection's id; a number or a numeric string (such as a Connection's `id`). */
  id: { program: takes<pulumi.Input<number | string>>(), input: unlessUnknown(objectIdInput(301)), required: true },
  /** The connection's own type, e.g. `salesforce` or `redshift`. */
  type: { program: takes<pulumi.Input<string>>(), input: unlessUnknown(z.string().min(1)), required: true },
} as const;

/** A connection of a delivery's end, by its id and type. */
export type DeliveryConnectionArgs = ArgsOf<typeof connectionFields>;

const endFields = {
  /** A `Connection` resource of the stack, or a connection's id and type. */
  connection: {
    program: takes<pulumi.Input<DeliveryConnectionArgs> | ConnectionResource>(),
    input: unlessUnknown(objectRule(connectionFields)),
    required: true,
  },
  /**
   * What to read or write there, as the service names it (`table`, `path`, `object`, …); a
   * destination's target schema is `schema`.
   */
  properties: { program: takes<pulumi.Input<Record<string, pulumi.Input<unknown>>>>(), input: unlessUnknown(z.record(z.string(), z.unknown())) },
} as const;

/** A delivery's source or destination. */
export type DeliveryEndArgs = ArgsOf<typeof endFields>;

const interval = z.strictObject({
  amount: z.number().refine(Number.isInteger, { message: "must be an integer", abort: true }).min(DELIVERY_INTERVAL_AMOUNT_MIN),
  unit: z.enum(DELIVERY_INTERVAL_UNITS),
});
type Interval = z.output<typeof interval>;

/** The connection's type must be able to play the end's part (a destination is a database or cloud storage). */
function refuseTypeOfOtherEnd(end: DeliveryEnd) {
  return (given: { connection?: { type?: unknown } }, ctx: z.RefinementCtx) => {
    const type = given.connection?.type;
    if (typeof type !== "string" || type === "" || isUnknown(type) || canPlayEnd(end, type)) return;
    ctx.addIssue({
      code: "custom",
      path: ["connection", "type"],
      message: `${DELIVERY_END_RULES[end]}, e.g. ${end === "source" ? "salesforce or postgres" : "redshift or s3"}`,
    });
  };
}

/** The program's spelling of the schema is `schema`; the create example's `schema_name` is taken too. */
function canonicalProperties(properties: Record<string, unknown>): Record<string, unknown> {
  const { [SCHEMA_PROPERTY.written]: written, ...rest } = properties;
  return written === undefined || SCHEMA_PROPERTY.read in rest ? rest : { ...rest, [SCHEMA_PROPERTY.read]: written };
}

/**
 * Both spellings of the schema, naming different ones: one would be dropped, and the service
 * refuses the two (422); the program is told which two inputs disagree instead.
 */
function refuseTwoSchemas(end: DeliveryEnd) {
  return (given: { properties?: Record<string, unknown> }, ctx: z.RefinementCtx) => {
    const properties = given.properties;
    if (properties === undefined || isUnknown(properties)) return;
    const [read, written] = [properties[SCHEMA_PROPERTY.read], properties[SCHEMA_PROPERTY.written]];
    if (read === undefined || written === undefined || isUnknown(read) || isUnknown(written) || read === written) return;
    ctx.addIssue({
      code: "custom",
      path: ["properties", SCHEMA_PROPERTY.written],
      message: `must be the same as ${end}.properties.${SCHEMA_PROPERTY.read} when both are given: both name the target schema; give one of them`,
    });
  };
}

function endInput(end: DeliveryEnd) {
  return objectRule(endFields)
    .superRefine(refuseTypeOfOtherEnd(end))
    .superRefine(refuseTwoSchemas(end))
    .transform((given) => ({
      connection: given.connection,
      // Still unknown in a preview (another resource's output): left as it is, and the update checks it.
      properties: (isUnknown(given.properties) ? given.properties : canonicalProperties(given.properties ?? {})) as Record<string, unknown>,
    }));
}
type EndInput = z.output<ReturnType<typeof endInput>>;

/** As the create sends it: the destination's schema as `schema_name`. */
function endBody(end: DeliveryEnd) {
  return (value: EndInput) => {
    const { [SCHEMA_PROPERTY.read]: schema, ...rest } = value.properties;
    const properties = end === "destination" && schema !== undefined ? { ...rest, [SCHEMA_PROPERTY.written]: schema } : value.properties;
    return { connection: { id: value.connection.id, type: value.connection.type }, properties };
  };
}

function endOf(record: DeliveryEndpointRecord): EndInput {
  return { connection: { id: record.connection.id, type: record.connection.type }, properties: record.properties };
}

const table = {
  /** 1 to 255 characters. Left out, the service names it after its connections and Pulumi leaves the name alone. */
  name: { input: labelText(), unmanagedWhenOmitted: true, api: "name", onChange: "replace" },
  /** Left out, the delivery has no description. */
  description: { input: z.string(), default: DELIVERY_DEFAULTS.description, api: "description", onChange: "replace" },
  /** Time between runs; default one day. */
  interval: {
    program: takes<pulumi.Input<{ amount: pulumi.Input<number>; unit: pulumi.Input<DeliveryIntervalUnit> }>>(),
    input: interval,
    default: { amount: DELIVERY_DEFAULTS.intervalAmount, unit: DELIVERY_DEFAULTS.intervalUnit },
    sendDefault: true,
    api: ["interval_amount", "interval_unit"],
    toApi: (value: Interval) => [value.amount, value.unit],
    onChange: "replace",
    read: (r) => ({ amount: r.interval_amount, unit: r.interval_unit }),
  },
  /** The connection read: any the service can read (a database, storage, analytics, ads or CRM service). */
  source: {
    program: takes<pulumi.Input<DeliveryEndArgs> | DeliveryEndArgs>(),
    input: endInput("source"),
    required: true,
    api: "source",
    toApi: endBody("source"),
    onChange: "replace",
    read: (r) => endOf(r.source),
    refersTo: { to: "connection", at: "connection.id", checkedByService: true },
  },
  /** The connection written: a database or cloud storage. */
  destination: {
    program: takes<pulumi.Input<DeliveryEndArgs> | DeliveryEndArgs>(),
    input: endInput("destination"),
    required: true,
    api: "destination",
    toApi: endBody("destination"),
    onChange: "replace",
    read: (r) => endOf(r.destination),
    refersTo: { to: "connection", at: "connection.id", checkedByService: true },
  },
  /** How long `up` waits for the service to set the delivery up; default 1800. */
  timeoutSeconds: {
    input: z.number().refine(Number.isInteger, { message: "must be an integer", abort: true }).min(1).max(86_400),
    default: 1800,
    onChange: "update",
  },
  /** The id of an existing delivery to manage instead of creating one. */
  importId: importIdField,
  status: output(`One of ${DELIVERY_STATUSES.join(", ")}; it moves on its own and never causes a change.`),
  statusMessage: output("Why the delivery is disabled (a connection it uses was deleted); null otherwise."),
  packageId: output("The package of its pipeline, which the service makes when the delivery is set up."),
  ownerId: OUTPUT,
  createdAt: OUTPUT,
  updatedAt: OUTPUT,
} satisfies Record<string, Field<DeliveryRecord>>;

/** What a program passes. */
export type DeliveryArgs = ArgsOf<typeof table>;

export const tableOperations = fieldOperations<DeliveryRecord, typeof table>(table);

export type DeliveryInputs = InputsOf<typeof table>;
export type DeliveryOutputs = OutputsOf<typeof table, DeliveryRecord>;
