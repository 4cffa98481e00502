/**
 * The account as a Python program through the plugin's SDK: arguments and the fields of the
 * SDK's input classes in snake_case, values of free-form inputs (`pulumi.json#/Any`, maps) as
 * dictionaries keyed as the provider takes them.
 */
import { SDK_NAMES } from "../../plugin/schema";
import { ConfigValue, FileText, ResourceReference } from "../../resources/shared/exported";
import { snakeCaseOf } from "../names";
import type { AccountExport, ExportedObject } from "../read";
import { declarationOrder, deeper, layout, quoted, variablesOf, type Indent, type ProgramSchema, type Spec } from "./layout";

type Context = { variables: Map<string, string>; schema: ProgramSchema };

function plainText(value: unknown, indent: Indent, context: Context): string {
  if (value instanceof ResourceReference) return `${snakeCaseOf(context.variables.get(`${value.kind}:${value.id}`)!)}.id`;
  if (value instanceof ConfigValue) return `config.${value.secret ? "require_secret" : "require"}(${quoted(value.name)})`;
  if (value instanceof FileText) return `flow(${quoted(value.path)})`;
  if (Array.isArray(value))
    return layout(
      "[",
      value.map((item) => plainText(item, deeper(indent), context)),
      "]",
      indent,
    );
  if (value !== null && typeof value === "object") {
    return layout(
      "{",
      Object.entries(value).map(([key, item]) => `${quoted(key)}: ${plainText(item, deeper(indent), context)}`),
      "}",
      indent,
    );
  }
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  return typeof value === "string" ? quoted(value) : JSON.stringify(value);
}

function typedText(value: unknown, spec: Spec | undefined, indent: Indent, context: Context): string {
  const type = spec === undefined ? undefined : context.schema.namedType(spec);
  if (type === undefined || value === null || typeof value !== "object" || Array.isArray(value)) return plainText(value, indent, context);
  const parts = Object.entries(value).map(([key, item]) => `${snakeCaseOf(key)}=${typedText(item, type.properties[key], deeper(indent), context)}`);
  return layout(`etl.${type.name}Args(`, parts, ")", indent);
}

function declaration(object: ExportedObject, context: Context): string {
  const indent = { current: "", step: "    " };
  const args = Object.entries(object.inputs).map(
    ([name, value]) => `${snakeCaseOf(name)}=${typedText(value, context.schema.inputSpec(object.kind, name), deeper(indent), context)}`,
  );
  const call = layout(`etl.${object.kind}(`, [quoted(object.name), ...args, "opts=pulumi.ResourceOptions(protect=True)"], ")", indent);
  return `${snakeCaseOf(object.variable)} = ${call}`;
}

export function pythonProgram(account: AccountExport, schema: ProgramSchema): string {
  const context = { variables: variablesOf(account.objects), schema };
  const lines = [
    '"""The account\'s set-up as `etl-export` read it. Secrets the service never returns come from the stack\'s configuration."""',
    "import pulumi",
    `import ${SDK_NAMES.python} as etl`,
    "",
    ...(account.settings.length > 0 ? ["config = pulumi.Config()", ""] : []),
    ...(account.files.length > 0
      ? [
          "",
          "def flow(path):",
          '    """A package\'s export document, kept beside the program."""',
          '    with open(path, encoding="utf-8") as file:',
          "        return file.read()",
          "",
          "",
        ]
      : []),
    ...declarationOrder(account.objects).map((object) => declaration(object, context)),
  ];
  return `${lines.join("\n")}\n`;
}
