/**
 * The reference pages, made from the plugin's schema: one per resource and one per function,
 * with an index. `npm run docs` writes them under docs/reference; a test holds the committed
 * pages to the schema, so they cannot go stale.
 */
import { PIPELINE_EXAMPLE, PIPELINE_TYPE } from "../components/pipeline/args";
import { PIPELINE_NOTES, PIPELINE_SUMMARY } from "../components/pipeline/notes";
import { RESOURCES, type ResourceDeclaration, type ResourceKind } from "../resources/registry";
import { summaryOf } from "../resources/shared/declaration";
import { FUNCTIONS, type FunctionDeclaration, type FunctionName } from "../functions/list";
import { EXAMPLE_LANGUAGES, exampleIn, functionExampleIn, type ExampleLanguage } from "./reference-examples";
import { packageSchema, PACKAGE, typeToken } from "./schema";

interface Property {
  type?: string;
  $ref?: string;
  items?: Property;
  additionalProperties?: Property;
  oneOf?: Property[];
  description?: string;
  secret?: boolean;
  replaceOnChanges?: boolean;
}
interface ObjectSpec {
  properties?: Record<string, Property>;
  required?: string[];
  description?: string;
}
interface Schema {
  resources: Record<string, ObjectSpec & { inputProperties: Record<string, Property>; requiredInputs: string[]; isComponent?: boolean }>;
  functions: Record<string, { description: string; inputs?: ObjectSpec; outputs: ObjectSpec }>;
  types: Record<string, ObjectSpec>;
  config: { variables: Record<string, Property> };
}

const nameOf = (token: string) => token.split(":").at(-1)!;
const cell = (text: string | undefined) => (text ?? "").replace(/\|/g, "\\|").replace(/\n+/g, " ");

/** The property's type in words; named object types link to their section of the same page, resources to their own page. */
function typeText(property: Property): string {
  if (property.$ref === "pulumi.json#/Any") return "any";
  if (property.$ref?.startsWith("#/resources/")) {
    const name = nameOf(property.$ref);
    return `a [${name}](${name}.md) resource`;
  }
  if (property.$ref !== undefined) {
    const name = nameOf(property.$ref);
    return `[${name}](#${name.toLowerCase()})`;
  }
  if (property.oneOf !== undefined) return property.oneOf.map(typeText).join(" or ");
  if (property.type === "array") return `list of ${property.items ? typeText(property.items) : "any"}`;
  if (property.type === "object") return `map of ${property.additionalProperties ? typeText(property.additionalProperties) : "any"}`;
  return property.type ?? "any";
}

/** The named types a page's properties use, nested ones included, each once. */
function typesUsed(properties: Property[], schema: Schema, found = new Set<string>()): string[] {
  for (const property of properties) {
    const nested = [property.items, property.additionalProperties, ...(property.oneOf ?? [])].filter((p): p is Property => p !== undefined);
    typesUsed(nested, schema, found);
    if (property.$ref === undefined || !property.$ref.startsWith("#/types/")) continue;
    const token = property.$ref.slice("#/types/".length);
    if (found.has(token)) continue;
    found.add(token);
    typesUsed(Object.values(schema.types[token]?.properties ?? {}), schema, found);
  }
  return [...found];
}

function inputTable(properties: Record<string, Property>, required: readonly string[]): string[] {
  const rows = Object.entries(properties).map(([name, p]) => {
    const flags = [required.includes(name) ? "required" : "optional", p.replaceOnChanges ? "replaces" : undefined, p.secret ? "secret" : undefined];
    return `| \`${name}\` | ${typeText(p)} | ${flags.filter(Boolean).join(", ")} | ${cell(p.description)} |`;
  });
  return ["| input | type | | description |", "|---|---|---|---|", ...rows];
}

function outputTable(properties: Record<string, Property>): string[] {
  const rows = Object.entries(properties).map(([name, p]) => `| \`${name}\` | ${typeText(p)}${p.secret ? " (secret)" : ""} | ${cell(p.description)} |`);
  return ["| output | type | description |", "|---|---|---|", ...rows];
}

/** A section per named type: as inputs (a resource's, a function's arguments) or as outputs (a function's result). */
function typeSections(tokens: string[], schema: Schema, as: "inputs" | "outputs" = "inputs"): string[] {
  return tokens.flatMap((token) => {
    const spec = schema.types[token]!;
    const table = as === "inputs" ? inputTable(spec.properties ?? {}, spec.required ?? []) : outputTable(spec.properties ?? {});
    return ["", `### ${nameOf(token)}`, "", ...table];
  });
}

const FENCES: Record<ExampleLanguage, string> = { typescript: "ts", python: "python", go: "go", yaml: "yaml" };
const TITLES: Record<ExampleLanguage, string> = { typescript: "TypeScript", python: "Python", go: "Go", yaml: "YAML" };

const FENCE = "```";

function examplesOf(write: (language: ExampleLanguage) => string): string[] {
  return EXAMPLE_LANGUAGES.flatMap((language) => [`### ${TITLES[language]}`, "", `${FENCE}${FENCES[language]}`, write(language), FENCE, ""]);
}

/** What a page's examples declare: a resource kind's example, or a component's. */
function exampleOf(kind: string): Record<string, unknown> {
  return typeToken(kind) === PIPELINE_TYPE ? PIPELINE_EXAMPLE : RESOURCES[kind as ResourceKind].example;
}

function examples(kind: string, schema: Schema): string[] {
  const inputs = schema.resources[`${PACKAGE}:index:${kind}`]!.inputProperties;
  const types = (token: string) => schema.types[token]?.properties ?? {};
  return examplesOf((language) => exampleIn(language, kind, exampleOf(kind), inputs, types));
}

/** The required arguments, with the values their declarations give for examples. */
function exampleArguments(name: FunctionName): Record<string, unknown> {
  const args = Object.entries((FUNCTIONS[name] as FunctionDeclaration).args ?? {});
  return Object.fromEntries(args.filter(([, arg]) => arg.required).map(([arg, declared]) => [arg, declared.example]));
}

/** How an existing object comes under management: by `pulumi import`, and by `importId` where the kind takes it, else by declaring it. */
function importSection(kind: string, schema: Schema): string[] {
  const declaration: ResourceDeclaration = RESOURCES[kind as ResourceKind];
  const id = declaration.importedBy ?? "its id";
  const onEitherSurface =
    "importId" in schema.resources[`${PACKAGE}:index:${kind}`]!.inputProperties
      ? "by setting `importId` on the resource for one `pulumi up`"
      : "by declaring it: its create takes over the existing object";
  return [
    "## Import",
    "",
    `An existing object is brought under management by ${id}, with the plugin: \`pulumi import ${PACKAGE}:index:${kind} <name> <id>\`; or, on either surface, ${onEitherSurface}.`,
  ];
}

/** What a kind's declaration (or the component's) says beyond its fields, as the page's section. */
function notesOf(kind: string): string[] {
  const notes = typeToken(kind) === PIPELINE_TYPE ? PIPELINE_NOTES : (RESOURCES[kind as ResourceKind] as ResourceDeclaration).notes;
  return ["## Notes", "", ...notes, ""];
}

const CHILDREN = [
  "## Children",
  "",
  "A component: what it declares are ordinary resources under it (`Package`, `Schedule`, `Hook`, `Delivery`), each shown on its own in a preview and kept in the state with the component as parent. It is served by the plugin to every language, and offered as a class by the `pulumi-etl` package for TypeScript programs on the dynamic resources.",
];

function resourcePage(kind: string, schema: Schema): string {
  const spec = schema.resources[`${PACKAGE}:index:${kind}`]!;
  const inputs = spec.inputProperties;
  const intro = spec.isComponent
    ? ""
    : "A change of an input marked *replaces* replaces the object; any other updates it in place. Every input is an output too.";
  const outputs = Object.fromEntries(Object.entries(spec.properties ?? {}).filter(([name]) => inputs[name] === undefined));
  const types = typesUsed([...Object.values(inputs), ...Object.values(outputs)], schema);
  return [
    `# ${kind}`,
    "",
    spec.description ?? "",
    "",
    "## Example",
    "",
    ...examples(kind, schema),
    ...notesOf(kind),
    "## Inputs",
    "",
    intro,
    "",
    ...inputTable(inputs, spec.requiredInputs),
    "",
    "## Outputs",
    "",
    ...outputTable(outputs),
    ...(types.length > 0 ? ["", "## Types", ...typeSections(types, schema)] : []),
    "",
    ...(spec.isComponent ? CHILDREN : importSection(kind, schema)),
    "",
  ].join("\n");
}

function functionPage(name: string, schema: Schema): string {
  const spec = schema.functions[`${PACKAGE}:index:${name}`]!;
  const args = spec.inputs?.properties ?? {};
  const results = spec.outputs.properties ?? {};
  const argumentTypes = typesUsed(Object.values(args), schema);
  const resultTypes = typesUsed(Object.values(results), schema).filter((token) => !argumentTypes.includes(token));
  const types = [...typeSections(argumentTypes, schema), ...typeSections(resultTypes, schema, "outputs")];
  return [
    `# ${name}`,
    "",
    spec.description,
    "",
    "## Example",
    "",
    ...examplesOf((language) => functionExampleIn(language, name, exampleArguments(name as FunctionName), Object.keys(args).length > 0)),
    "## Arguments",
    "",
    ...(Object.keys(args).length === 0 ? ["None."] : inputTable(args, spec.inputs?.required ?? [])),
    "",
    "## Result",
    "",
    ...(Object.keys(results).length === 0 ? [spec.outputs.description ?? "An object."] : outputTable(results)),
    ...(types.length > 0 ? ["", "## Types", ...types] : []),
    "",
  ].join("\n");
}

function indexPage(schema: Schema): string {
  const resources = Object.keys(schema.resources).map(nameOf);
  const functions = Object.keys(schema.functions).map(nameOf);
  const settings = Object.entries(schema.config.variables).map(
    ([name, p]) => `| \`${PACKAGE}:${name}\` | ${typeText(p)}${p.secret ? " (secret)" : ""} | ${cell(p.description)} |`,
  );
  return [
    "# Reference",
    "",
    "Made from the plugin's schema by `npm run docs`; do not edit by hand.",
    "",
    "## Provider settings",
    "",
    "| setting | type | description |",
    "|---|---|---|",
    ...settings,
    "",
    "## Resources",
    "",
    ...resources.map((kind) => `- [${kind}](resources/${kind}.md): ${schema.resources[`${PACKAGE}:index:${kind}`]!.description}`),
    "",
    "## Functions",
    "",
    ...functions.map((name) => `- [${name}](functions/${name}.md): ${schema.functions[`${PACKAGE}:index:${name}`]!.description}`),
    "",
  ].join("\n");
}

/** Every page, by its path under docs/reference. */
export function referencePages(): Map<string, string> {
  const schema = packageSchema() as unknown as Schema;
  const pages = new Map<string, string>([["README.md", indexPage(schema)]]);
  for (const token of Object.keys(schema.resources)) pages.set(`resources/${nameOf(token)}.md`, resourcePage(nameOf(token), schema));
  for (const token of Object.keys(schema.functions)) pages.set(`functions/${nameOf(token)}.md`, functionPage(nameOf(token), schema));
  return pages;
}

/** A kind's line in the README's table: its declaration's summary, or its description's first sentence. */
function kindSummary(kind: string, schema: Schema): string {
  if (typeToken(kind) !== PIPELINE_TYPE) return summaryOf(RESOURCES[kind as ResourceKind] as ResourceDeclaration);
  return summaryOf({ summary: PIPELINE_SUMMARY, description: schema.resources[`${PACKAGE}:index:${kind}`]!.description ?? "" });
}

/** The README's generated tables by their marker's name: every kind and every function, each linking to its page. */
function readmeTables(): Map<string, string[]> {
  const schema = packageSchema() as unknown as Schema;
  const kinds = Object.keys(schema.resources).map(nameOf);
  const functions = Object.keys(schema.functions).map(nameOf);
  return new Map([
    [
      "kinds",
      [
        "| kind | what it is |",
        "|---|---|",
        ...kinds.map((kind) => `| [\`${kind}\`](docs/reference/resources/${kind}.md) | ${cell(kindSummary(kind, schema))} |`),
      ],
    ],
    [
      "functions",
      [
        "| function | what it gives |",
        "|---|---|",
        ...functions.map(
          (name) => `| [\`${name}\`](docs/reference/functions/${name}.md) | ${cell(schema.functions[`${PACKAGE}:index:${name}`]!.description)} |`,
        ),
      ],
    ],
  ]);
}

/**
 * The README with its generated tables made anew: each between `<!-- <name>:start -->` and
 * `<!-- <name>:end -->`, so a new kind or function appears there without a hand edit.
 */
export function withReadmeTables(readme: string): string {
  let text = readme;
  for (const [name, lines] of readmeTables()) {
    const start = `<!-- ${name}:start -->`;
    const end = `<!-- ${name}:end -->`;
    const from = text.indexOf(start);
    const to = text.indexOf(end, from);
    if (from < 0 || to < 0) throw new Error(`README.md has no ${start} … ${end} for the generated table of ${name}`);
    text = `${text.slice(0, from + start.length)}\n${lines.join("\n")}\n${text.slice(to)}`;
  }
  return text;
}
