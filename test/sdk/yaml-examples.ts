/**
 * Checks a Pulumi YAML program against the plugin's schema: every resource's type and every
 * function's token is the package's, and every property, argument and field of a named type
 * that the program gives is one the schema declares; every `${name}` refers to something the
 * program declares.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { packageSchema } from "pulumi-etl/plugin";

type Spec = { $ref?: string; items?: Spec; additionalProperties?: Spec; properties?: Record<string, Spec> };
type Schema = {
  resources: Record<string, { inputProperties: Record<string, Spec> }>;
  functions: Record<string, { inputs?: { properties?: Record<string, Spec> } }>;
  types: Record<string, { properties?: Record<string, Spec> }>;
};
type Program = Record<string, unknown>;

/** Each YAML text as data, read by PyYAML (which the Python environment's `pulumi` depends on). */
export function parseYaml(texts: string[]): Program[] {
  const root = process.env.PULUMI_ETL_LANGUAGES_ROOT;
  if (!root) throw new Error("PULUMI_ETL_LANGUAGES_ROOT is not set: source scripts/setup.sh first");
  const read = "import json, sys, yaml; print(json.dumps([yaml.safe_load(text) for text in json.load(sys.stdin)]))";
  return JSON.parse(execFileSync(path.join(root, "python", "bin", "python"), ["-c", read], { input: JSON.stringify(texts), encoding: "utf8" }));
}

/** `etl:Connection` or `etl:index:Connection` → `etl:index:Connection`. */
const fullToken = (token: string) => (token.split(":").length === 2 ? token.replace(":", ":index:") : token);

/** The names given in `value` that `spec` does not declare, down through named types and lists of them. */
function unknownFields(value: unknown, spec: Spec | undefined, schema: Schema, where: string): string[] {
  if (spec === undefined || value === null || typeof value !== "object") return [];
  if (Array.isArray(value)) return value.flatMap((item, index) => unknownFields(item, spec.items, schema, `${where}[${index}]`));
  const named = spec.$ref?.startsWith("#/types/") ? schema.types[spec.$ref.slice("#/types/".length)] : undefined;
  if (spec.$ref !== undefined && named === undefined) return [];
  const fields = named?.properties ?? spec.properties;
  if (fields === undefined) return Object.entries(value).flatMap(([key, item]) => unknownFields(item, spec.additionalProperties, schema, `${where}.${key}`));
  return Object.entries(value).flatMap(([key, item]) =>
    fields[key] === undefined ? [`${where}.${key} is not a field the schema declares`] : unknownFields(item, fields[key], schema, `${where}.${key}`),
  );
}

function invokesIn(value: unknown): Array<{ function: string; arguments?: Record<string, unknown> }> {
  if (value === null || typeof value !== "object") return [];
  const invoke = (value as Record<string, unknown>)["fn::invoke"];
  return [...(invoke === undefined ? [] : [invoke as { function: string }]), ...Object.values(value).flatMap(invokesIn)];
}

function referencesIn(value: unknown): string[] {
  if (typeof value === "string") return [...value.matchAll(/(?<!\$)\$\{([^}.[]+)/g)].map((match) => match[1]!);
  return value !== null && typeof value === "object" ? Object.values(value).flatMap(referencesIn) : [];
}

/** What in `program` the schema does not know, each as a sentence; none for a program it takes. */
export function schemaProblems(program: Program | undefined, schema = packageSchema() as unknown as Schema): string[] {
  if (program === null || typeof program !== "object") return ["not a YAML mapping"];
  const problems = program.runtime === "yaml" ? [] : [`runtime is ${JSON.stringify(program.runtime)}, not yaml`];
  const resources = Object.entries((program.resources ?? {}) as Record<string, { type: string; properties?: unknown }>);
  for (const [name, resource] of resources) {
    const spec = schema.resources[fullToken(resource.type)];
    if (spec === undefined) problems.push(`${name}: ${resource.type} is not a resource of the schema`);
    else problems.push(...unknownFields(resource.properties ?? {}, { properties: spec.inputProperties }, schema, name));
  }
  for (const invoke of invokesIn(program)) {
    const spec = schema.functions[fullToken(invoke.function)];
    if (spec === undefined) problems.push(`${invoke.function} is not a function of the schema`);
    else problems.push(...unknownFields(invoke.arguments ?? {}, { properties: spec.inputs?.properties ?? {} }, schema, invoke.function));
  }
  const declared = new Set(["config", "variables", "resources"].flatMap((section) => Object.keys((program[section] ?? {}) as object)));
  for (const name of referencesIn(program)) if (!declared.has(name)) problems.push(`\${${name}} refers to nothing the program declares`);
  return problems;
}
