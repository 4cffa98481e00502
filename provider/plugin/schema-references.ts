/**
 * The inputs that take another resource (shared/references.ts), typed so in the schema and the
 * SDKs: a union of the resource (`$ref` to `#/resources/…`) and what it stands for, a
 * connection's `{ id, type }` or an id. Object types on the way are the schema's own (shared by
 * inputs and outputs); an input the schema leaves untyped stays so.
 */
import { RESOURCE_INPUTS } from "../resources/registry";
import type { ReferencedKind } from "../resources/shared/references";
import { ID_INPUT_TYPE } from "../resources/shared/check";

type Json = Record<string, unknown>;

const resourceRef = (kind: ReferencedKind, typeToken: (name: string) => string) => ({ $ref: `#/resources/${typeToken(kind)}` });

/** `{ id, type }` of a connection, as the kind's inputs name one, declared once per kind. */
function connectionObject(owner: string, typeToken: (name: string) => string, types: Record<string, Json>): Json {
  const token = typeToken(`${owner}Connection`);
  types[token] ??= {
    type: "object",
    description: "A connection of the account by its id and type.",
    properties: {
      id: { ...ID_INPUT_TYPE, description: "The connection's id; a number or a numeric string (such as a Connection's `id`)." },
      type: { type: "string", description: "The connection's own type, e.g. `postgres` or `s3`." },
    },
    required: ["id", "type"],
  };
  return { $ref: `#/types/${token}` };
}

function branchesOf(spec: Json): Json[] {
  if (Array.isArray(spec.oneOf)) return spec.oneOf as Json[];
  return spec.$ref === "pulumi.json#/Any" || spec.$ref === undefined ? [{ type: "integer" }, { type: "string" }] : [spec];
}

function leaf(spec: Json, owner: string, kind: ReferencedKind, typeToken: (name: string) => string, types: Record<string, Json>): Json {
  const { description } = spec;
  const given = kind === "Connection" ? [connectionObject(owner, typeToken, types)] : branchesOf(spec);
  return { oneOf: [resourceRef(kind, typeToken), ...given], ...(description === undefined ? {} : { description }) };
}

function typed(spec: Json, path: string[], owner: string, kind: ReferencedKind, typeToken: (name: string) => string, types: Record<string, Json>): Json {
  if (path.length === 0) return leaf(spec, owner, kind, typeToken, types);
  const [segment, ...rest] = path as [string, ...string[]];
  if (segment === "*") return spec.type === "array" ? { ...spec, items: typed(spec.items as Json, rest, owner, kind, typeToken, types) } : spec;
  const ref = typeof spec.$ref === "string" && spec.$ref.startsWith("#/types/") ? spec.$ref.slice("#/types/".length) : undefined;
  const properties = ref === undefined ? undefined : (types[ref]?.properties as Record<string, Json> | undefined);
  if (properties?.[segment] !== undefined) properties[segment] = typed(properties[segment], rest, owner, kind, typeToken, types);
  return spec;
}

/** The input `name` of `owner` with the resources it takes: the output keeps the spec as it was given. */
export function withResourceTypes(owner: string, name: string, spec: Json, typeToken: (name: string) => string, types: Record<string, Json>): Json {
  const inputs = (RESOURCE_INPUTS[owner] ?? []).filter((input) => input.path === name || input.path.startsWith(`${name}.`));
  return inputs.reduce((current, input) => typed(current, input.path.split(".").slice(1), owner, input.kind, typeToken, types), spec);
}
