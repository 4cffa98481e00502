/**
 * The account as a Go program through the plugin's SDK: each value wrapped as the SDK's field
 * type asks (`pulumi.String`, `pulumi.StringMap`, `&etl.ScheduleTaskArgs{…}`), free-form values
 * (`pulumi.json#/Any`) as `pulumi.Map` and `pulumi.Array`. Only resources another refers to get a
 * variable: Go refuses one never used.
 */
import { SDK_NAMES } from "../../plugin/schema";
import { ConfigValue, FileText, ResourceReference } from "../../resources/shared/exported";
import type { AccountExport, ExportedObject } from "../read";
import { declarationOrder, deeper, isAny, layout, quoted, referencedObjects, variablesOf, type Indent, type ProgramSchema, type Spec } from "./layout";

type Context = { variables: Map<string, string>; schema: ProgramSchema };

const goName = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

function marker(value: unknown, context: Context, asString: boolean): string | undefined {
  if (value instanceof ResourceReference) return `${context.variables.get(`${value.kind}:${value.id}`)}.ID()${asString ? ".ToStringOutput()" : ""}`;
  if (value instanceof ConfigValue) return value.secret ? `cfg.RequireSecret(${quoted(value.name)})` : `pulumi.String(cfg.Require(${quoted(value.name)}))`;
  if (value instanceof FileText) return `flows[${quoted(value.path)}]`;
  return undefined;
}

/** A free-form value: maps and lists of inputs, scalars wrapped. */
function anyText(value: unknown, indent: Indent, context: Context): string {
  const special = marker(value, context, false);
  if (special !== undefined) return special;
  if (Array.isArray(value))
    return layout(
      "pulumi.Array{",
      value.map((item) => anyText(item, deeper(indent), context)),
      "}",
      indent,
    );
  if (value !== null && typeof value === "object") {
    return layout(
      "pulumi.Map{",
      Object.entries(value).map(([key, item]) => `${quoted(key)}: ${anyText(item, deeper(indent), context)}`),
      "}",
      indent,
    );
  }
  if (value === null) return "nil";
  if (typeof value === "boolean") return `pulumi.Bool(${value})`;
  if (typeof value === "number") return Number.isInteger(value) ? `pulumi.Int(${value})` : `pulumi.Float64(${value})`;
  return `pulumi.String(${quoted(String(value))})`;
}

const SCALARS: Record<string, (value: unknown) => string> = {
  string: (value) => `pulumi.String(${quoted(String(value))})`,
  integer: (value) => `pulumi.Int(${value})`,
  number: (value) => `pulumi.Float64(${value})`,
  boolean: (value) => `pulumi.Bool(${value})`,
};
const COLLECTIONS: Record<string, string> = { string: "String", integer: "Int", number: "Float64", boolean: "Bool" };

function typedText(value: unknown, spec: Spec | undefined, indent: Indent, context: Context, inList = false): string {
  const special = marker(value, context, spec?.type === "string");
  if (special !== undefined) return special;
  if (spec === undefined || isAny(spec) || value === null) return anyText(value, indent, context);
  const type = context.schema.namedType(spec);
  if (type !== undefined) {
    const parts = Object.entries(value as object).map(([key, item]) => `${goName(key)}: ${typedText(item, type.properties[key], deeper(indent), context)}`);
    return layout(`${inList ? "" : "&"}etl.${type.name}Args{`, parts, "}", indent);
  }
  const scalar = SCALARS[spec.type as string];
  if (scalar !== undefined) return scalar(value);
  const element = (spec.type === "array" ? spec.items : spec.additionalProperties) as Spec | undefined;
  const collection = `${collectionOf(element, context)}${spec.type === "array" ? "Array" : "Map"}{`;
  if (spec.type === "array") {
    return layout(
      collection,
      (value as unknown[]).map((item) => typedText(item, element, deeper(indent), context, true)),
      "}",
      indent,
    );
  }
  const entries = Object.entries(value as object).map(([key, item]) => `${quoted(key)}: ${typedText(item, element, deeper(indent), context, true)}`);
  return layout(collection, entries, "}", indent);
}

/** The SDK's collection type prefix for elements of this spec: `pulumi.String`, `etl.ScheduleTask`, or `pulumi.` for free-form ones. */
function collectionOf(element: Spec | undefined, context: Context): string {
  if (element === undefined || isAny(element)) return "pulumi.";
  const scalar = COLLECTIONS[element.type as string];
  if (scalar !== undefined) return `pulumi.${scalar}`;
  const type = context.schema.namedType(element);
  return type === undefined ? "pulumi." : `etl.${type.name}`;
}

function declaration(object: ExportedObject, context: Context, referenced: Set<string>): string {
  const indent = { current: "\t\t", step: "\t" };
  const fields = Object.entries(object.inputs).map(
    ([name, value]) => `${goName(name)}: ${typedText(value, context.schema.inputSpec(object.kind, name), deeper(indent), context)}`,
  );
  const args = layout(`&etl.${object.kind}Args{`, fields, "}", indent);
  const target = referenced.has(`${object.kind}:${object.id}`) ? object.variable : "_";
  return [
    `\t\t${target}, err ${target === "_" ? "=" : ":="} etl.New${object.kind}(ctx, ${quoted(object.name)}, ${args}, pulumi.Protect(true))`,
    "\t\tif err != nil {",
    "\t\t\treturn err",
    "\t\t}",
  ].join("\n");
}

function flowFiles(account: AccountExport): string[] {
  if (account.files.length === 0) return [];
  const paths = account.files.map((file) => quoted(file.path)).join(", ");
  return [
    "\t\t// Packages' export documents, kept beside the program.",
    "\t\tflows := map[string]pulumi.String{}",
    `\t\tfor _, path := range []string{${paths}} {`,
    "\t\t\ttext, readErr := os.ReadFile(path)",
    "\t\t\tif readErr != nil {",
    "\t\t\t\treturn readErr",
    "\t\t\t}",
    "\t\t\tflows[path] = pulumi.String(text)",
    "\t\t}",
  ];
}

export function goProgram(account: AccountExport, schema: ProgramSchema): string {
  const context = { variables: variablesOf(account.objects), schema };
  const referenced = referencedObjects(account.objects);
  const declarations = declarationOrder(account.objects).map((object) => declaration(object, context, referenced));
  const imports = [...(account.files.length > 0 ? ['\t"os"', ""] : []), `\t${quoted(SDK_NAMES.go)}`, '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"'];
  if (account.settings.length > 0) imports.push('\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"');
  const lines = [
    "// The account's set-up as `etl-export` read it. Secrets the service never returns come from the stack's configuration.",
    "package main",
    "",
    "import (",
    ...imports,
    ")",
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
    ...(account.settings.length > 0 ? ['\t\tcfg := config.New(ctx, "")'] : []),
    ...(declarations.length > 0 ? ["\t\tvar err error"] : []),
    ...flowFiles(account),
    ...declarations,
    "\t\treturn nil",
    "\t})",
    "}",
  ];
  return `${lines.join("\n")}\n`;
}
