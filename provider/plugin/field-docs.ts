/**
 * The inputs' documentation as the `*Args` interfaces say it, collected at build time
 * (scripts/field-docs.cts) beside this module: written once, for editors and the schema alike.
 */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";

type Docs = Record<string, Record<string, string>>;

let docs: Docs | undefined;

function allDocs(): Docs {
  const file = path.join(__dirname, "field-docs.json");
  docs ??= existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Docs) : {};
  return docs;
}

/** What each input of `<name>Args` (or `Common<name>Args`, for a kind whose arguments vary by type) says it is. */
export function fieldDocs(name: string): Record<string, string> {
  const all = allDocs();
  return { ...all[`Common${name}Args`], ...all[`${name}Args`] };
}
