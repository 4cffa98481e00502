/**
 * The account as a Pulumi YAML program, written into Pulumi.yaml after the project's lines: no
 * SDK, the YAML host reads the plugin's schema. Each resource is keyed by its variable (unique in
 * the program, where the names in the stack are unique only within a kind) and keeps its name in
 * the stack with `name:`; the values the service never returns are the project's configuration,
 * declared at the top.
 */
import { typeToken } from "../../plugin/schema";
import { yamlBlock, YamlExpression } from "../../plugin/yaml-text";
import { ConfigValue, FileText, ResourceReference } from "../../resources/shared/exported";
import type { AccountExport, ExportedObject } from "../read";
import { declarationOrder, variablesOf } from "./layout";

function substitution(variables: Map<string, string>) {
  return (value: unknown): unknown => {
    if (value instanceof ResourceReference) return new YamlExpression(`\${${variables.get(`${value.kind}:${value.id}`)}.id}`);
    if (value instanceof ConfigValue) return new YamlExpression(`\${${value.name}}`);
    if (value instanceof FileText) return { "fn::readFile": value.path };
    return undefined;
  };
}

function configuration(account: AccountExport): Record<string, unknown> {
  if (account.settings.length === 0) return {};
  const declared = account.settings.map((setting) => [setting.name, { type: "string", ...(setting.secret ? { secret: true } : {}) }]);
  return { config: Object.fromEntries(declared) };
}

function declaration(object: ExportedObject): Record<string, unknown> {
  return { type: typeToken(object.kind), name: object.name, properties: object.inputs, options: { protect: true } };
}

export function yamlProgram(account: AccountExport): string {
  const resources = Object.fromEntries(declarationOrder(account.objects).map((object) => [object.variable, declaration(object)]));
  const program = { ...configuration(account), resources };
  return `${yamlBlock(program, "", substitution(variablesOf(account.objects))).join("\n")}\n`;
}
