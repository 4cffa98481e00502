/**
 * Values written as the block text of a Pulumi YAML program: one mapping entry or sequence item
 * a line, strings plain when they are simple words and otherwise double-quoted (JSON's escapes
 * are YAML's too) with every `$` doubled, since Pulumi YAML reads `${…}` in a string as an
 * expression and `$$` as a plain `$`.
 */

/** Text written as it is: an expression such as `${warehouse.id}`. */
export class YamlExpression {
  constructor(readonly text: string) {}
}

/** What a writer puts in a value's place (an expression, a `fn::` call), or undefined to write it as it is. */
export type Substitute = (value: unknown) => unknown;

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$|^fn::[A-Za-z]+$/;
/** Words YAML 1.1 readers take for booleans or null: quoted when they are keys. */
const YAML_WORDS = /^(y|yes|n|no|true|false|on|off|null)$/i;

export function yamlKey(key: string): string {
  return PLAIN_KEY.test(key) && !YAML_WORDS.test(key) ? key : JSON.stringify(key);
}

/** A string any YAML reader takes as that string unquoted: a word, a path, a type token, a host name. */
const PLAIN_STRING = /^[A-Za-z][A-Za-z0-9_./@-]*(:[A-Za-z0-9_./@-]+)*$/;

export function yamlScalar(value: unknown): string {
  if (typeof value === "string") return PLAIN_STRING.test(value) && !YAML_WORDS.test(value) ? value : JSON.stringify(value.replaceAll("$", () => "$$"));
  return value === null || value === undefined ? "null" : JSON.stringify(value);
}

/** The value on the key's line, or undefined when it takes lines of its own. */
function inlineText(value: unknown): string | undefined {
  if (value instanceof YamlExpression) return value.text;
  if (Array.isArray(value)) return value.length === 0 ? "[]" : undefined;
  if (value !== null && typeof value === "object") return Object.keys(value).length === 0 ? "{}" : undefined;
  return yamlScalar(value);
}

/** `key: value` at `indent`; a mapping or sequence value on the lines after, two spaces deeper. */
export function yamlEntry(key: string, value: unknown, indent: string, substitute: Substitute = () => undefined): string[] {
  const given = substitute(value) ?? value;
  const inline = inlineText(given);
  if (inline !== undefined) return [`${indent}${yamlKey(key)}: ${inline}`];
  return [`${indent}${yamlKey(key)}:`, ...yamlBlock(given as object, `${indent}  `, substitute)];
}

/** The lines of a mapping's entries or a sequence's items, at `indent`. */
export function yamlBlock(value: object, indent: string, substitute: Substitute = () => undefined): string[] {
  if (!Array.isArray(value)) return Object.entries(value).flatMap(([key, item]) => yamlEntry(key, item, indent, substitute));
  return value.flatMap((item: unknown) => {
    const given = substitute(item) ?? item;
    const inline = inlineText(given);
    if (inline !== undefined) return [`${indent}- ${inline}`];
    const [first, ...rest] = yamlBlock(given as object, `${indent}  `, substitute);
    return [`${indent}- ${first!.slice(indent.length + 2)}`, ...rest];
  });
}
