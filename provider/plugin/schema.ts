/**
 * The plugin's Pulumi package schema, made from the one list of resources and the one list of
 * functions: each resource's inputs and outputs from its field table (types from the fields'
 * input rules, and for outputs read from the service's record, from the record's own schema),
 * secrets, required inputs and what a change replaces.
 */
import { z } from "zod";
import { camelCaseOf } from "../api/records";
import { SETTINGS } from "../config";
import { FUNCTIONS, type ArgumentType, type FunctionDeclaration } from "../functions/list";
import { RESOURCES, RESOURCE_KINDS, type ResourceDeclaration } from "../resources/registry";
import { COMMON_OUTPUT_DOCS, type Field } from "../resources/shared/fields";
import { fieldDocs } from "./field-docs";
import { PIPELINE_TYPE } from "../components/pipeline/args";
import { pipelineSpec } from "./schema-components";
import { withResourceTypes } from "./schema-references";
import { packageVersion } from "./version";

export { PACKAGE, typeToken } from "./schema-types";
import {
  ANY,
  capitalized,
  fromJsonSchema,
  fromZod,
  objectType,
  PACKAGE,
  readType,
  typeToken,
  type Json,
  type PropertySpec,
  type TypeSpecs,
  withDescription,
} from "./schema-types";

interface Described {
  inputs: Record<string, PropertySpec>;
  outputs: Record<string, PropertySpec>;
  requiredInputs: string[];
}

function describeFields(kind: string, declaration: ResourceDeclaration, types: TypeSpecs): Described {
  const secrets = new Set(declaration.secrets);
  const docs = fieldDocs(kind);
  const described: Described = { inputs: {}, outputs: {}, requiredInputs: [] };
  const entries = Object.entries(declaration.tableOperations.table) as Array<[string, Field<never>]>;
  for (const [name, field] of entries) {
    const typeName = `${kind}${capitalized(name)}`;
    const type = field.input !== undefined ? fromZod(field.input, "input", typeName, types) : readType(field.read!, declaration.record, typeName, types);
    // An input says how to give it (its doc comment); an output, what it holds (`description`) when that differs.
    const inputDoc = docs[name];
    const outputDoc = field.description ?? inputDoc ?? COMMON_OUTPUT_DOCS[name];
    const secret = secrets.has(name) ? { secret: true } : {};
    if (field.input !== undefined) {
      // An input without documentation would be an SDK argument nobody can read about.
      if (inputDoc === undefined && field.description === undefined)
        throw new Error(`${kind}.${name} has no documentation: write a doc comment on its entry in the field table`);
      described.inputs[name] = {
        ...withResourceTypes(kind, name, type, typeToken, types),
        ...secret,
        ...withDescription(inputDoc ?? field.description),
        ...(field.onChange === "replace" ? { replaceOnChanges: true } : {}),
      };
      if (field.required) described.requiredInputs.push(name);
    }
    if (declaration.tableOperations.outputNames.includes(name)) described.outputs[name] = { ...type, ...secret, ...withDescription(outputDoc) };
  }
  return described;
}

function resourceSpec(kind: string, declaration: ResourceDeclaration, types: TypeSpecs): Json {
  const { inputs, outputs, requiredInputs } = describeFields(kind, declaration, types);
  return {
    description: declaration.description,
    inputProperties: inputs,
    requiredInputs,
    properties: outputs,
    required: [],
  };
}

const ARGUMENT_TYPES: Record<ArgumentType, PropertySpec> = {
  string: { type: "string" },
  integer: { type: "integer" },
  boolean: { type: "boolean" },
  // An id: a number, or a string of digits as other resources' outputs give it.
  integerOrString: { oneOf: [{ type: "integer" }, { type: "string" }] },
};

/**
 * The record's JSON Schema with its own fields named in camelCase, as the functions return them.
 * Its wire form (`io: "input"`): a field the client normalizes (a null description made "")
 * has no JSON Schema of its output, and an untyped result field breaks the Python SDK's checks.
 */
function camelCasedRecord(record: z.ZodObject): Json {
  const schema = z.toJSONSchema(record, { io: "input", unrepresentable: "any" }) as Json;
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([name, property]) => [camelCaseOf(name), property]);
  return { ...schema, properties: Object.fromEntries(properties), required: ((schema.required ?? []) as string[]).map(camelCaseOf) };
}

function resultSpec(name: string, declaration: FunctionDeclaration, types: TypeSpecs): Json {
  const described = "The record as the service returns it, with camelCase names.";
  if (declaration.returnsList) {
    const items = declaration.result ? objectType(camelCasedRecord(declaration.result), `${capitalized(name)}Item`, types) : ANY;
    return { properties: { items: { type: "array", items, description: "What the service returned." } }, required: ["items"], type: "object" };
  }
  if (declaration.result === undefined) return { properties: {}, type: "object", description: described };
  const record = camelCasedRecord(declaration.result);
  const properties = Object.entries(record.properties as Record<string, Json>).map(([field, property]) => [
    field,
    fromJsonSchema(property, `${capitalized(name)}Result${capitalized(field)}`, types),
  ]);
  return { properties: Object.fromEntries(properties), required: record.required, type: "object", description: described };
}

function functionSpec(name: string, declaration: FunctionDeclaration, types: TypeSpecs): Json {
  const args = Object.entries(declaration.args ?? {});
  const result = resultSpec(name, declaration, types);
  return {
    description: declaration.description,
    ...(args.length > 0
      ? {
          inputs: {
            properties: Object.fromEntries(
              args.map(([name, arg]) => [name, { ...ARGUMENT_TYPES[arg.type], ...(arg.description ? { description: arg.description } : {}) }]),
            ),
            required: args.filter(([, arg]) => arg.required).map(([name]) => name),
          },
        }
      : {}),
    outputs: result,
  };
}

function configSpec(): Json {
  const variables = Object.fromEntries(
    Object.entries(SETTINGS).map(([name, setting]) => [
      name,
      { type: setting.type, description: `${setting.description} Falls back to ${setting.env}.`, ...("secret" in setting ? { secret: true } : {}) },
    ]),
  );
  return variables;
}

/** Where each language's SDK is published from (sdk/<language>) and under which name; every SDK carries the schema's version. */
export const SDK_NAMES = {
  nodejs: "@pulumi-etl/sdk",
  python: "pulumi_etl",
  go: "github.com/pulumi-etl/pulumi-etl/sdk/go/etl",
} as const;

const SDK_LANGUAGES = {
  nodejs: { packageName: SDK_NAMES.nodejs, respectSchemaVersion: true },
  python: { packageName: SDK_NAMES.python, respectSchemaVersion: true },
  go: { importBasePath: SDK_NAMES.go, respectSchemaVersion: true, generateResourceContainerTypes: false },
};

/**
 * Where the engine fetches the plugin when a program needs it and it is not installed: a folder
 * holding `pulumi-resource-etl-v<version>-<os>-<arch>.tar.gz`. Releases may build with another.
 */
export function defaultPluginDownloadURL(version = packageVersion()): string {
  return `https://github.com/pulumi-etl/pulumi-etl/releases/download/v${version}/`;
}

export interface SchemaOptions {
  /** Written into every SDK, which hands it to the engine; the default is the project's releases. */
  pluginDownloadURL?: string;
}

export function packageSchema(options: SchemaOptions = {}): Json {
  const types: TypeSpecs = {};
  const resources = Object.fromEntries(RESOURCE_KINDS.map((kind) => [typeToken(kind), resourceSpec(kind, RESOURCES[kind], types)]));
  resources[PIPELINE_TYPE] = pipelineSpec(types);
  const functions = Object.fromEntries(Object.entries(FUNCTIONS).map(([name, declaration]) => [typeToken(name), functionSpec(name, declaration, types)]));
  const variables = configSpec();
  return {
    name: PACKAGE,
    displayName: "ETL",
    version: packageVersion(),
    pluginDownloadURL: options.pluginDownloadURL ?? defaultPluginDownloadURL(),
    description: "Connections, schedules, hooks, members, keys, clusters and job runs of the ETL data-integration service.",
    keywords: ["pulumi", "etl", "category/cloud"],
    license: "Apache-2.0",
    config: { variables },
    provider: { description: "The account and credentials the resources are managed with.", inputProperties: variables, properties: variables },
    resources,
    functions,
    types,
    language: SDK_LANGUAGES,
  };
}
