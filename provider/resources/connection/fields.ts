/**
 * Connection's fields: `type` (a new one replaces the connection), `name`, and every attribute
 * any type takes (`attributes.ts`), of which a connection may set only its own type's. Each
 * updates in place; an omitted attribute stands for the service's default for the type. Secret
 * attributes (password, refreshToken, code) are never returned by the service: they are kept as
 * last sent, so a refresh cannot see them changed elsewhere.
 */
import { z } from "zod";
import type { ConnectionSettingsRecord } from "../../api/connections";
import { CONNECTION_TYPE_NAMES, connectionAttributeProblems, connectionAttributes, type ConnectionType } from "../../../contract/connection-types";
import { importIdField } from "../shared/adopt";
import { isUnknown, labelText } from "../shared/check";
import { fieldOperations, output, OUTPUT, takes, type ArgsOf, type Field, type InputsOf, type OutputsOf } from "../shared/fields";
import { API_NAME_OF, ATTRIBUTE_FIELDS, camelCaseOf, type AttributeArgsOf, type ConnectionAttributeValues } from "./attributes";

const OWN_FIELDS = {
  /** The connection's type, e.g. `postgres`, `snowflake`, `s3`; changing it replaces the connection. */
  type: {
    // Given as it is, never as another resource's output: the type says which attributes the connection takes.
    program: takes<ConnectionType>(),
    input: z.enum(CONNECTION_TYPE_NAMES as [ConnectionType, ...ConnectionType[]]),
    required: true,
    onChange: "replace",
    read: (r) => r.type as ConnectionType,
  },
  /** The connection's name; 1 to 255 characters. */
  name: { input: labelText(), required: true, api: "name", onChange: "update" },
  /**
   * Default true: before creating, the service tries these settings, and a failure stops `up`
   * with the service's reason, creating nothing.
   */
  testBeforeCreate: { input: z.boolean(), default: true },
  /** The id of an existing connection of this type to manage instead of creating one. */
  importId: importIdField,
  uniqueId: output("The connection's id across types, as the service gives it."),
  createdAt: OUTPUT,
  updatedAt: OUTPUT,
} satisfies Record<string, Field<ConnectionSettingsRecord>>;

/** What every connection takes, whatever its type: the type is named as it is, so that it tells the type's attributes. */
export type CommonConnectionArgs<T extends ConnectionType> = ArgsOf<typeof OWN_FIELDS> & { type: T };

/** One type's arguments: the common ones and the type's own attributes. */
export type ConnectionArgsOf<T extends ConnectionType> = CommonConnectionArgs<T> & AttributeArgsOf<T>;

/** A connection's arguments: naming the type gives the type's own attributes, and only them. */
export type ConnectionArgs = { [T in ConnectionType]: ConnectionArgsOf<T> }[ConnectionType];

// The attributes are many and made from the catalogue, so their types come from
// `ConnectionAttributeValues` below; the table's static type names only the fixed fields.
const table = { ...OWN_FIELDS, ...ATTRIBUTE_FIELDS } as typeof OWN_FIELDS;

/** Attributes of another type, and each type's own rules (required, enumerations), named as the program names them. */
function refineForType(inputs: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const type = inputs.type as ConnectionType;
  if (isUnknown(type)) return;
  const own = connectionAttributes(type);
  const given: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(inputs)) {
    const apiName = API_NAME_OF.get(name);
    if (apiName === undefined || value === undefined) continue;
    if (own[apiName] === undefined) {
      const takes = Object.keys(own).map(camelCaseOf).join(", ") || "none";
      ctx.addIssue({ code: "custom", path: [name], message: `is not an attribute of ${type} connections (they take: ${takes})` });
    }
    given[apiName] = value;
  }
  for (const problem of connectionAttributeProblems(type, given)) {
    // An attribute still unknown in a preview is checked by the update.
    if (isUnknown(given[problem.attribute])) continue;
    const message = problem.message.replace(/\b[a-z]+(?:_[a-z0-9]+)+\b/g, camelCaseOf);
    ctx.addIssue({ code: "custom", path: [camelCaseOf(problem.attribute)], message });
  }
}

export const tableOperations = fieldOperations<ConnectionSettingsRecord, typeof OWN_FIELDS>(table, {
  refine: (inputs, ctx) => refineForType(inputs as Record<string, unknown>, ctx),
});

export type ConnectionInputs = InputsOf<typeof OWN_FIELDS> & ConnectionAttributeValues;
export type ConnectionOutputs = OutputsOf<typeof OWN_FIELDS, ConnectionSettingsRecord> & ConnectionAttributeValues;
