/**
 * What an exported program declares, read without the engine: each resource's type, its name in
 * the stack, whether it is protected, and its inputs with every reference, setting and file
 * resolved. A resource's id reads `<type>/<name>`, as the mocks of test/support/run-with-fake-engine.py
 * answer it, so two programs that declare the same resources compare equal.
 */

export interface Declared {
  type: string;
  name: string;
  protect: boolean;
  inputs: Record<string, unknown>;
}

interface YamlResource {
  type: string;
  name: string;
  properties?: Record<string, unknown>;
  options?: { protect?: boolean };
}

export interface YamlInputs {
  /** Each setting's value, by the name the program declares it under. */
  config: Record<string, string>;
  /** A file's text, by its path in the project. */
  readFile(file: string): string;
}

const REFERENCE = /^\$\{(\w+)\.id\}$/;
const SETTING = /^\$\{(\w+)\}$/;

/**
 * A Pulumi YAML program's resources, as its host hands them to the engine: `${variable.id}` is the
 * resource's id, `${setting}` the setting's value, `fn::readFile` the file's text, and `$$` one `$`.
 * Only the forms `etl-export` writes are read; any other `${…}` fails.
 */
export function declaredByYaml(program: { resources: Record<string, YamlResource> }, inputs: YamlInputs): Declared[] {
  const ids = new Map(Object.entries(program.resources).map(([variable, resource]) => [variable, `${resource.type}/${resource.name}`]));
  const resolved = (value: unknown): unknown => {
    if (typeof value === "string") return resolvedText(value, ids, inputs.config);
    if (Array.isArray(value)) return value.map(resolved);
    if (value === null || typeof value !== "object") return value;
    const entries = Object.entries(value);
    if (entries.length === 1 && entries[0]![0] === "fn::readFile") return inputs.readFile(String(entries[0]![1]));
    return Object.fromEntries(entries.map(([key, item]) => [key, resolved(item)]));
  };
  return Object.values(program.resources).map((resource) => ({
    type: resource.type,
    name: resource.name,
    protect: resource.options?.protect === true,
    inputs: resolved(resource.properties ?? {}) as Record<string, unknown>,
  }));
}

function resolvedText(text: string, ids: Map<string, string>, config: Record<string, string>): string {
  const reference = REFERENCE.exec(text);
  if (reference !== null) return known(ids.get(reference[1]!), text);
  const setting = SETTING.exec(text);
  if (setting !== null) return known(config[setting[1]!], text);
  if (/(^|[^$])(\$\$)*\$\{/.test(text)) throw new Error(`an expression etl-export does not write: ${text}`);
  return text.replaceAll("$$", "$");
}

function known(value: string | undefined, text: string): string {
  if (value === undefined) throw new Error(`${text} names nothing the program declares`);
  return value;
}
