/**
 * Property types of the package schema: from the zod rules of inputs, from the JSON Schema of the
 * service's records, and from what an output's `read` takes of its record (traced through a
 * stand-in record). Object types met on the way are added to the schema's `types` by token.
 */
import { z } from "zod";
import { fieldDocs } from "./field-docs";

export const PACKAGE = "etl";

export const typeToken = (name: string) => `${PACKAGE}:index:${name}`;

export type Json = Record<string, unknown>;
export type PropertySpec = Json;
export const ANY: PropertySpec = { $ref: "pulumi.json#/Any" };

/** Object types met inside properties, by token: filled while properties are described. */
export type TypeSpecs = Record<string, Json>;

export const withDescription = (text: string | undefined) => (text === undefined ? {} : { description: text });

export const capitalized = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

function withoutNull(branches: Json[]): Json[] {
  return branches.filter((branch) => branch.type !== "null");
}

/** A JSON Schema (as zod writes it) as a Pulumi property type; objects with properties become named types. */
export function fromJsonSchema(schema: Json, typeName: string, types: TypeSpecs): PropertySpec {
  const branches = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (branches !== undefined) {
    const kept = withoutNull(branches);
    if (kept.length === 1) return fromJsonSchema(kept[0]!, typeName, types);
    // A union of plain values (an id as a number or a string) stays one in every SDK.
    const plain = kept.every((branch) => ["integer", "number", "string", "boolean"].includes(branch.type as string));
    return plain ? { oneOf: kept.map((branch) => ({ type: branch.type })) } : ANY;
  }
  if (Array.isArray(schema.type)) {
    // zod writes a nullable field as `type: [T, "null"]`; null is how the service says "none".
    const kinds = (schema.type as string[]).filter((kind) => kind !== "null");
    return kinds.length === 1 ? fromJsonSchema({ ...schema, type: kinds[0] }, typeName, types) : ANY;
  }
  if (schema.enum !== undefined) {
    const values = schema.enum as unknown[];
    if (values.every((value) => typeof value === "string")) return { type: "string" };
    if (values.every((value) => typeof value === "number")) return { type: "number" };
    return ANY;
  }
  switch (schema.type) {
    case "string":
    case "boolean":
    case "integer":
    case "number":
      return { type: schema.type };
    case "array":
      return { type: "array", items: schema.items ? fromJsonSchema(schema.items as Json, `${typeName}Item`, types) : ANY };
    case "object":
      return objectType(schema, typeName, types);
    default:
      return ANY;
  }
}

export function objectType(schema: Json, typeName: string, types: TypeSpecs): PropertySpec {
  const properties = schema.properties as Record<string, Json> | undefined;
  if (properties !== undefined && Object.keys(properties).length > 0) {
    const token = typeToken(typeName);
    const docs = fieldDocs(typeName);
    types[token] = {
      type: "object",
      properties: Object.fromEntries(
        Object.entries(properties).map(([name, item]) => [
          name,
          { ...fromJsonSchema(item, `${typeName}${capitalized(name)}`, types), ...withDescription(docs[name] ?? (item.description as string | undefined)) },
        ]),
      ),
      ...(Array.isArray(schema.required) && schema.required.length > 0 ? { required: schema.required } : {}),
    };
    return { $ref: `#/types/${token}` };
  }
  const values = schema.additionalProperties;
  if (values !== undefined && typeof values === "object")
    return { type: "object", additionalProperties: fromJsonSchema(values as Json, `${typeName}Value`, types) };
  return ANY;
}

export function fromZod(schema: z.ZodType, io: "input" | "output", typeName: string, types: TypeSpecs): PropertySpec {
  try {
    return fromJsonSchema(z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Json, typeName, types);
  } catch {
    return ANY;
  }
}

/**
 * The record fields a `read` takes as they are, found by giving it a record that notes what is
 * read: `(r) => r.created_at` reads `created_at`. A read that computes (a comparison, a mapping)
 * gives a value of its own, typed from it where it can be.
 */
const PATH = Symbol("path read");

function tracingRecord(path: string[]): object {
  return new Proxy(Object.create(null) as object, {
    get: (_target, key) => (key === PATH ? path : typeof key === "symbol" ? undefined : tracingRecord([...path, key])),
  });
}

/** The path a value read from a tracing record was read at; undefined for a value the read computed. */
function pathOf(value: unknown): string[] | undefined {
  return typeof value === "object" && value !== null ? ((value as Record<symbol, unknown>)[PATH] as string[] | undefined) : undefined;
}

function schemaAt(record: z.ZodType, path: string[]): z.ZodType | undefined {
  let current: z.ZodType | undefined = record;
  for (const key of path) {
    let inner: unknown = current;
    while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) inner = inner.unwrap();
    const shape = (inner as { shape?: Record<string, z.ZodType> } | undefined)?.shape;
    current = shape?.[key];
    if (current === undefined) return undefined;
  }
  return current;
}

export function readType(read: (record: never) => unknown, record: z.ZodType, typeName: string, types: TypeSpecs): PropertySpec {
  let value: unknown;
  try {
    value = read(tracingRecord([]) as never);
  } catch {
    return ANY;
  }
  return tracedType(value, record, typeName, types);
}

function tracedType(value: unknown, record: z.ZodType, typeName: string, types: TypeSpecs): PropertySpec {
  const path = pathOf(value);
  if (path !== undefined) {
    const found = schemaAt(record, path);
    return found === undefined ? ANY : fromZod(found, "output", typeName, types);
  }
  if (typeof value === "boolean" || typeof value === "string") return { type: typeof value };
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const properties = Object.entries(value as Json).map(([name, item]) => [name, tracedType(item, record, `${typeName}${capitalized(name)}`, types)]);
    const token = typeToken(typeName);
    types[token] = { type: "object", properties: Object.fromEntries(properties) };
    return { $ref: `#/types/${token}` };
  }
  return ANY;
}
