/**
 * The connection types' attributes as a program names them (camelCase), from the one catalogue
 * in `contract/connection-types.ts`: the types a program sees for each `type`, and the field
 * table entries every attribute becomes.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { ConnectionSettingsRecord } from "../../api/connections";
import { camelCaseOf } from "../../api/records";
import {
  CONNECTION_ATTRIBUTE_NAMES,
  CONNECTION_TYPE_NAMES,
  type CONNECTION_TYPE_RULES,
  SECRET_CONNECTION_ATTRIBUTES,
  connectionAttributes,
  isConnectionType,
  type ConnectionAttribute,
  type ConnectionType,
} from "../../../contract/connection-types";
import type { Field } from "../shared/fields";

type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

type AttributesOf<T extends ConnectionType> = (typeof CONNECTION_TYPE_RULES)[T]["attributes"];

type ValueOf<A> = A extends { values: readonly (infer V)[] } ? V : A extends { kind: "integer" } ? number : A extends { kind: "boolean" } ? boolean : string;

type RequiredNames<A> = { [K in keyof A]: A[K] extends { required: true } ? K : never }[keyof A] & string;
type OptionalNames<A> = Exclude<keyof A & string, RequiredNames<A>>;

/** One type's attributes as a program gives them: its required ones required, the rest optional, with their value types. */
export type AttributeArgsOf<T extends ConnectionType> = {
  [K in RequiredNames<AttributesOf<T>> as CamelCase<K>]: pulumi.Input<ValueOf<AttributesOf<T>[K]>>;
} & {
  [K in OptionalNames<AttributesOf<T>> as CamelCase<K>]?: pulumi.Input<ValueOf<AttributesOf<T>[K]>>;
};

type AnyAttributeName = { [T in ConnectionType]: keyof AttributesOf<T> & string }[ConnectionType];
export type ConnectionAttributeName = CamelCase<AnyAttributeName>;

/** Every attribute's value, for the outputs: a type's own are set, the others left undefined. */
export type ConnectionAttributeValues = { [K in ConnectionAttributeName]?: string | number | boolean };

export { camelCaseOf };

/** The API name of each attribute, by the name a program gives it. */
export const API_NAME_OF: ReadonlyMap<string, string> = new Map(CONNECTION_ATTRIBUTE_NAMES.map((name) => [camelCaseOf(name), name]));

/** The attributes that are written, never read back, by the names a program gives them. */
export const SECRET_ATTRIBUTES: readonly string[] = SECRET_CONNECTION_ATTRIBUTES.map(camelCaseOf);

/** Every attribute any type takes holds one kind of value (a port is always an integer). */
function kindOf(apiName: string): ConnectionAttribute["kind"] {
  const rule = CONNECTION_TYPE_NAMES.map((type) => connectionAttributes(type)[apiName]).find((attribute) => attribute !== undefined);
  return rule!.kind;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: names control characters on purpose, to refuse them
const NO_NUL_OR_DEL = /^[^\u0000\u007f]*$/;

const VALUE_RULES = {
  string: () => z.string().max(4096).regex(NO_NUL_OR_DEL, "must not contain NUL or DEL characters"),
  integer: () => z.number().int().min(1).max(65_535),
  boolean: () => z.boolean(),
} as const;

/** The service's default for an omitted attribute of this type, if it has one. */
function defaultFor(apiName: string) {
  return (values: Record<string, unknown>): unknown => {
    const type = values.type;
    return typeof type === "string" && isConnectionType(type) ? connectionAttributes(type)[apiName]?.default : undefined;
  };
}

/** Which types take an attribute, and how, from the catalogue: the attribute's documentation. */
function descriptionOf(apiName: string): string {
  const takers = CONNECTION_TYPE_NAMES.flatMap((type) => {
    const rule = connectionAttributes(type)[apiName];
    if (rule === undefined) return [];
    const notes = [rule.required ? "required" : undefined, rule.default === undefined ? undefined : `default ${JSON.stringify(rule.default)}`].filter(Boolean);
    return [notes.length > 0 ? `${type} (${notes.join(", ")})` : type];
  });
  const values = CONNECTION_TYPE_NAMES.map((type) => connectionAttributes(type)[apiName]?.values).find((found) => found !== undefined);
  const secret = SECRET_CONNECTION_ATTRIBUTES.includes(apiName) ? " Kept encrypted; the service never returns it." : "";
  return `\`${apiName}\` of ${takers.join(", ")} connections.${values ? ` One of ${values.join(", ")}.` : ""}${secret}`;
}

/**
 * One field per attribute: sent under its API name, updated in place; the service's default
 * stands for an omitted one. A secret is not read back: it is kept as last sent.
 */
function attributeField(apiName: string): Field<ConnectionSettingsRecord> {
  const secret = SECRET_CONNECTION_ATTRIBUTES.includes(apiName);
  return {
    description: descriptionOf(apiName),
    input: VALUE_RULES[kindOf(apiName)](),
    defaultFrom: defaultFor(apiName),
    api: apiName,
    onChange: "update",
    ...(secret ? { writeOnly: true } : { read: (record: ConnectionSettingsRecord) => record[apiName] ?? undefined }),
  };
}

export const ATTRIBUTE_FIELDS: Readonly<Record<string, Field<ConnectionSettingsRecord>>> = Object.fromEntries(
  CONNECTION_ATTRIBUTE_NAMES.map((name) => [camelCaseOf(name), attributeField(name)]),
);
