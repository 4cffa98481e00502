/**
 * A kind's example (its registry entry's inputs) written in each language, for the reference
 * pages: TypeScript, Python and Go, each typed as that language's SDK takes it, from the
 * schema's input types (a named object type is that SDK's args type; an untyped value is passed
 * as it is), and YAML, which takes every value as it is. `{ secretConfig }` is a secret of the
 * stack's configuration.
 */
import { RESOURCE_KINDS } from "../resources/registry";
import { SDK_NAMES } from "./schema";
import { yamlBlock, YamlExpression } from "./yaml-text";

export interface PropertyType {
  type?: string;
  $ref?: string;
  items?: PropertyType;
  additionalProperties?: PropertyType;
}
export type TypeLookup = (token: string) => Record<string, PropertyType>;

export interface SecretExample {
  secretConfig: string;
}

export function isSecretExample(value: unknown): value is SecretExample {
  return value !== null && typeof value === "object" && typeof (value as SecretExample).secretConfig === "string";
}

type Values = Record<string, unknown>;
const ANY: PropertyType = {};
const nameOf = (token: string) => token.split(":").at(-1)!;
const capitalized = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
const lowerFirst = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);
/** Words a module (strict mode) cannot use as a variable name, which a kind may lower-case to. */
const RESERVED_IN_STRICT_MODE = new Set(["package", "interface", "private", "protected", "public", "static", "implements", "let", "yield"]);
/** `const cluster = …`, but `const myPackage = …` where the kind's word is reserved. */
const variableOf = (kind: string) => (RESERVED_IN_STRICT_MODE.has(lowerFirst(kind)) ? `my${kind}` : lowerFirst(kind));
const usesSecrets = (example: Values) => JSON.stringify(example).includes('"secretConfig"');
const typeToken = (property: PropertyType) => (property.$ref?.startsWith("#/types/") ? property.$ref.slice("#/types/".length) : undefined);

function entriesOf(value: Values, indent: string, render: (key: string, item: unknown) => string): string {
  return Object.entries(value)
    .map(([key, item]) => `${indent}${render(key, item)}`)
    .join("\n");
}

// ---- TypeScript: one shape for every value.

function typescriptValue(value: unknown, indent: string): string {
  if (isSecretExample(value)) return `config.requireSecret(${JSON.stringify(value.secretConfig)})`;
  if (Array.isArray(value)) return `[${value.map((item) => typescriptValue(item, indent)).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const inner = `${indent}  `;
    const key = (name: string) => (/^[A-Za-z_]\w*$/.test(name) ? name : JSON.stringify(name));
    return `{\n${entriesOf(value as Values, inner, (name, item) => `${key(name)}: ${typescriptValue(item, inner)},`)}\n${indent}}`;
  }
  return JSON.stringify(value);
}

function typescriptExample(kind: string, example: Values): string {
  return [
    'import * as pulumi from "@pulumi/pulumi";',
    `import * as etl from "pulumi-etl"; // or "${SDK_NAMES.nodejs}", the plugin's SDK: the same classes and arguments`,
    "",
    ...(usesSecrets(example) ? ["const config = new pulumi.Config();"] : []),
    `const ${variableOf(kind)} = new etl.${kind}("example", ${typescriptValue(example, "")});`,
  ].join("\n");
}

// ---- Python: snake_case names where the SDK types the object, the value as it is elsewhere.

function pythonValue(value: unknown, property: PropertyType, types: TypeLookup, indent: string): string {
  if (isSecretExample(value)) return `config.require_secret(${JSON.stringify(value.secretConfig)})`;
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (Array.isArray(value)) return `[${value.map((item) => pythonValue(item, property.items ?? ANY, types, indent)).join(", ")}]`;
  if (typeof value === "object") {
    const token = typeToken(property);
    const fields = token === undefined ? undefined : types(token);
    const inner = `${indent}    `;
    const render = (name: string, item: unknown) =>
      `${JSON.stringify(fields ? snakeCase(name) : name)}: ${pythonValue(item, fields?.[name] ?? property.additionalProperties ?? ANY, types, inner)},`;
    return `{\n${entriesOf(value as Values, inner, render)}\n${indent}}`;
  }
  return JSON.stringify(value);
}

function pythonExample(kind: string, example: Values, inputs: Record<string, PropertyType>, types: TypeLookup): string {
  const args = Object.entries(example).map(([name, value]) => `    ${snakeCase(name)}=${pythonValue(value, inputs[name] ?? ANY, types, "    ")},`);
  return [
    "import pulumi",
    `import ${SDK_NAMES.python} as etl`,
    "",
    ...(usesSecrets(example) ? ["config = pulumi.Config()"] : []),
    `${snakeCase(variableOf(kind))} = etl.${kind}(`,
    '    "example",',
    ...args,
    ")",
  ].join("\n");
}

// ---- Go: each value wrapped in the SDK's input type.

function goLiteral(value: unknown): string {
  if (Array.isArray(value)) return `[]interface{}{${value.map(goLiteral).join(", ")}}`;
  if (value !== null && typeof value === "object") {
    return `map[string]interface{}{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${goLiteral(item)}`)
      .join(", ")}}`;
  }
  return value === null ? "nil" : JSON.stringify(value);
}

const GO_SCALARS: Record<string, string> = { string: "String", integer: "Int", number: "Float64", boolean: "Bool" };

function goValue(value: unknown, property: PropertyType, types: TypeLookup, indent: string): string {
  if (isSecretExample(value)) return `cfg.RequireSecret(${JSON.stringify(value.secretConfig)})`;
  const token = typeToken(property);
  const inner = `${indent}\t`;
  if (token !== undefined && value !== null && typeof value === "object") {
    const fields = types(token);
    const render = (name: string, item: unknown) => `${capitalized(name)}: ${goValue(item, fields[name] ?? ANY, types, inner)},`;
    return `&etl.${nameOf(token)}Args{\n${entriesOf(value as Values, inner, render)}\n${indent}}`;
  }
  const scalar = property.type === undefined ? undefined : GO_SCALARS[property.type];
  if (scalar !== undefined) return `pulumi.${scalar}(${JSON.stringify(value)})`;
  if (property.type === "array" && Array.isArray(value)) {
    const itemScalar = property.items?.type === undefined ? undefined : GO_SCALARS[property.items.type];
    const items = value.map((item) => `${inner}${goValue(item, property.items ?? ANY, types, inner)},`).join("\n");
    return `pulumi.${itemScalar ?? ""}Array{\n${items}\n${indent}}`;
  }
  if (property.type === "object" && value !== null && typeof value === "object") {
    const itemScalar = property.additionalProperties?.type === undefined ? undefined : GO_SCALARS[property.additionalProperties.type];
    const render = (name: string, item: unknown) => `${JSON.stringify(name)}: ${goValue(item, property.additionalProperties ?? ANY, types, inner)},`;
    return `pulumi.${itemScalar ?? ""}Map{\n${entriesOf(value as Values, inner, render)}\n${indent}}`;
  }
  return `pulumi.Any(${goLiteral(value)})`;
}

/** A Go program whose `pulumi.Run` body is `body` (lines indented two tabs). */
function goProgram(body: string[], usesConfig: boolean): string {
  return [
    "package main",
    "",
    "import (",
    `\t"${SDK_NAMES.go}"`,
    '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
    ...(usesConfig ? ['\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"'] : []),
    ")",
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
    ...(usesConfig ? ['\t\tcfg := config.New(ctx, "")'] : []),
    ...body,
    "\t})",
    "}",
  ].join("\n");
}

function goExample(kind: string, example: Values, inputs: Record<string, PropertyType>, types: TypeLookup): string {
  const fields = Object.entries(example).map(([name, value]) => `\t\t\t${capitalized(name)}: ${goValue(value, inputs[name] ?? ANY, types, "\t\t\t")},`);
  return goProgram([`\t\t_, err := etl.New${kind}(ctx, "example", &etl.${kind}Args{`, ...fields, "\t\t})", "\t\treturn err"], usesSecrets(example));
}

// ---- Functions: a call with the required arguments' example values.

function functionTypescript(name: string, args: Values): string {
  const call = Object.keys(args).length === 0 ? `etl.${name}()` : `etl.${name}(${typescriptValue(args, "")})`;
  return ['import * as etl from "pulumi-etl";', "", `export const result = ${call};`].join("\n");
}

function functionPython(name: string, args: Values): string {
  const given = Object.entries(args).map(([arg, value]) => `${snakeCase(arg)}=${pythonValue(value, ANY, () => ({}), "")}`);
  return ["import pulumi", `import ${SDK_NAMES.python} as etl`, "", `result = etl.${snakeCase(name)}(${given.join(", ")})`].join("\n");
}

/** The Go SDK's name of a function: `get<Kind>` of a resource kind is `Lookup<Kind>` there, beside the kind's own `Get<Kind>`. */
function goFunctionName(name: string): string {
  const kind = name.startsWith("get") ? name.slice(3) : undefined;
  return kind !== undefined && (RESOURCE_KINDS as readonly string[]).includes(kind) ? `Lookup${kind}` : capitalized(name);
}

function functionGo(name: string, args: Values, takesArguments: boolean): string {
  const goName = goFunctionName(name);
  const given = Object.entries(args).map(([arg, value]) => `\t\t\t${capitalized(arg)}: ${goLiteral(value)},`);
  const call = !takesArguments
    ? `etl.${goName}(ctx)`
    : given.length === 0
      ? `etl.${goName}(ctx, &etl.${goName}Args{})`
      : [`etl.${goName}(ctx, &etl.${goName}Args{`, ...given, "\t\t})"].join("\n");
  return goProgram(
    [`\t\tresult, err := ${call}`, "\t\tif err != nil {", "\t\t\treturn err", "\t\t}", '\t\tctx.Export("result", pulumi.Any(result))', "\t\treturn nil"],
    false,
  );
}

// ---- YAML: a whole Pulumi.yaml; a secret is a secret setting of the project, declared at the top.

const yamlSecret = (value: unknown) => (isSecretExample(value) ? new YamlExpression(`\${${value.secretConfig}}`) : undefined);

function secretsIn(value: unknown): string[] {
  if (isSecretExample(value)) return [value.secretConfig];
  return value !== null && typeof value === "object" ? Object.values(value).flatMap(secretsIn) : [];
}

function yamlProgram(sections: Values): string {
  return yamlBlock({ name: "example", runtime: "yaml", ...sections }, "", yamlSecret).join("\n");
}

function yamlExample(kind: string, example: Values): string {
  const secrets = secretsIn(example).map((name) => [name, { type: "string", secret: true }]);
  const config = secrets.length > 0 ? { config: Object.fromEntries(secrets) } : {};
  return yamlProgram({ ...config, resources: { example: { type: `etl:${kind}`, properties: example } } });
}

function functionYaml(name: string, args: Values): string {
  const invoke = { function: `etl:${name}`, ...(Object.keys(args).length > 0 ? { arguments: args } : {}) };
  return yamlProgram({ variables: { result: { "fn::invoke": invoke } }, outputs: { result: new YamlExpression("${result}") } });
}

/** `args`: the required arguments' example values; `takesArguments`: whether it declares any. */
export function functionExampleIn(language: ExampleLanguage, name: string, args: Values, takesArguments: boolean): string {
  if (language === "typescript") return functionTypescript(name, args);
  if (language === "python") return functionPython(name, args);
  if (language === "yaml") return functionYaml(name, args);
  return functionGo(name, args, takesArguments);
}

export const EXAMPLE_LANGUAGES = ["typescript", "python", "go", "yaml"] as const;
export type ExampleLanguage = (typeof EXAMPLE_LANGUAGES)[number];

export function exampleIn(language: ExampleLanguage, kind: string, example: Values, inputs: Record<string, PropertyType>, types: TypeLookup): string {
  if (language === "typescript") return typescriptExample(kind, example);
  if (language === "python") return pythonExample(kind, example, inputs, types);
  if (language === "yaml") return yamlExample(kind, example);
  return goExample(kind, example, inputs, types);
}
