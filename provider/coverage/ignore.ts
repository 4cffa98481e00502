/**
 * The ignore file: one rule a line, `Kind:id`, `Kind:*` or `Kind:name=<glob>` (`*` any text, `?`
 * one character, matched against the whole name), blank lines and `#` comments besides. A rule
 * names what a team chose to leave out of its stacks; the report shows such objects as ignored.
 */
import { UserFacingError } from "../errors";

export type IgnoreRule =
  | { kind: string; line: number; id: string }
  | { kind: string; line: number; all: true }
  | { kind: string; line: number; name: RegExp; glob: string };

/** `*` and `?` as wildcards; every other character stands for itself. */
function globPattern(glob: string): RegExp {
  const escaped = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${escaped}$`, "s");
}

function ruleOf(text: string, line: number, kinds: readonly string[], where: string): IgnoreRule {
  const match = /^([A-Za-z]+):(.*)$/.exec(text);
  const rules = "a rule is Kind:id, Kind:* or Kind:name=<glob>";
  if (match === null) throw new UserFacingError(`${where}:${line}: "${text}" is not a rule: ${rules}`);
  const [, kind, rest] = match as unknown as [string, string, string];
  if (!kinds.includes(kind)) throw new UserFacingError(`${where}:${line}: "${kind}" is not a kind; the kinds are ${kinds.join(", ")}`);
  if (rest === "*") return { kind, line, all: true };
  if (rest.startsWith("name=")) {
    const glob = rest.slice("name=".length);
    if (glob === "") throw new UserFacingError(`${where}:${line}: ${kind}:name= needs a name or a glob after "="`);
    return { kind, line, name: globPattern(glob), glob };
  }
  if (!/^\S+$/.test(rest)) throw new UserFacingError(`${where}:${line}: "${text}" is not a rule: ${rules}`);
  return { kind, line, id: rest };
}

/** The rules of a file's text; `where` (the file's name) and the line number start every error. */
export function parseIgnoreRules(text: string, kinds: readonly string[], where: string): IgnoreRule[] {
  return text.split(/\r?\n/).flatMap((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return [];
    return [ruleOf(line, index + 1, kinds, where)];
  });
}

/** The first rule naming the object, if one does. */
export function ruleMatching(rules: readonly IgnoreRule[], object: { kind: string; id: string; name: string }): IgnoreRule | undefined {
  return rules.find((rule) => {
    if (rule.kind !== object.kind) return false;
    if ("all" in rule) return true;
    if ("id" in rule) return rule.id === object.id;
    return rule.name.test(object.name);
  });
}
