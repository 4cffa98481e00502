/** The account as a TypeScript program: through the plugin's SDK, or through the dynamic resources with `importId`. */
import { SDK_NAMES } from "../../plugin/schema";
import { RESOURCES, type ResourceKind } from "../../resources/registry";
import { ConfigValue, FileText, ResourceReference } from "../../resources/shared/exported";
import type { AccountExport, ExportedObject } from "../read";
import { declarationOrder, deeper, layout, quoted, variablesOf, type Indent } from "./layout";

export type Surface = "plugin" | "dynamic";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function valueText(value: unknown, indent: Indent, variables: Map<string, string>): string {
  if (value instanceof ResourceReference) return `${variables.get(`${value.kind}:${value.id}`)}.id`;
  if (value instanceof ConfigValue) return `config.${value.secret ? "requireSecret" : "require"}(${quoted(value.name)})`;
  if (value instanceof FileText) return `flow(${quoted(value.path)})`;
  if (Array.isArray(value))
    return layout(
      "[",
      value.map((item) => valueText(item, deeper(indent), variables)),
      "]",
      indent,
    );
  if (value !== null && typeof value === "object") {
    const parts = Object.entries(value).map(([key, item]) => `${IDENTIFIER.test(key) ? key : quoted(key)}: ${valueText(item, deeper(indent), variables)}`);
    return layout("{ ", parts, " }", indent);
  }
  return typeof value === "string" ? quoted(value) : JSON.stringify(value);
}

/** A kind the service holds one of (the user's settings) is taken over by its create, without an `importId`. */
const takesImportId = (kind: ResourceKind) => "importId" in RESOURCES[kind].tableOperations.table;

function declaration(object: ExportedObject, surface: Surface, variables: Map<string, string>): string {
  const inputs = surface === "dynamic" && takesImportId(object.kind) ? { ...object.inputs, importId: object.id } : object.inputs;
  const args = valueText(inputs, { current: "", step: "  " }, variables);
  return `const ${object.variable} = new etl.${object.kind}(${quoted(object.name)}, ${args}, { protect: true });`;
}

export function typescriptProgram(account: AccountExport, surface: Surface): string {
  const variables = variablesOf(account.objects);
  const lines = [
    "// The account's set-up as `etl-export` read it. Secrets the service never returns come from the stack's configuration.",
    ...(account.files.length > 0 ? ['import * as fs from "node:fs";'] : []),
    ...(account.settings.length > 0 ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    `import * as etl from ${quoted(surface === "plugin" ? SDK_NAMES.nodejs : "pulumi-etl")};`,
    "",
    ...(account.settings.length > 0 ? ["const config = new pulumi.Config();"] : []),
    ...(account.files.length > 0
      ? ["/** A package's export document, kept beside the program. */", 'const flow = (path: string) => fs.readFileSync(path, "utf8");']
      : []),
    "",
    ...declarationOrder(account.objects).map((object) => declaration(object, surface, variables)),
  ];
  return `${lines.join("\n")}\n`;
}
