import { HttpError } from "../../http";

/**
 * The service's search language (facts, "Search endpoints"): `q` holds terms separated by spaces,
 * each `attr:value`, `attr:"a b"`, `attr:>time`, `attr:<time`, negated with a leading `-`, or free
 * text, which hits the record's name and description. Terms on the same attribute are OR'd,
 * terms on different attributes AND'd; a negated term excludes what it matches. Each area says
 * which attributes its records have and how a value matches them.
 */

/** How a term's value matches: an id exactly, a word ignoring case, text as a part, a time by comparison. */
export type AttributeKind = "id" | "word" | "text" | "time";

export interface SearchAttribute<T> {
  kind: AttributeKind;
  of(record: T): string | number;
}

export interface SearchSchema<T> {
  attributes: Readonly<Record<string, SearchAttribute<T>>>;
  /** The texts free terms look in (name, description). */
  freeText(record: T): string[];
}

interface Term {
  attribute: string | undefined;
  negated: boolean;
  operator: "" | ">" | "<";
  value: string;
}

const TERM = /(-?)(?:([A-Za-z_]+):)?([<>]?)(?:"([^"]*)"|(\S+))/g;

function badQuery(message: string): HttpError {
  return new HttpError(400, `q ${message}`);
}

function parseTerms(q: string): Term[] {
  return [...q.matchAll(TERM)].map((match) => ({
    negated: match[1] === "-",
    attribute: match[2]?.toLowerCase(),
    operator: (match[3] ?? "") as Term["operator"],
    value: (match[4] ?? match[5] ?? "").toLowerCase(),
  }));
}

function checkTerm<T>(term: Term, schema: SearchSchema<T>): void {
  if (term.attribute === undefined) return;
  const attribute = Object.hasOwn(schema.attributes, term.attribute) ? schema.attributes[term.attribute] : undefined;
  if (attribute === undefined) throw badQuery(`names an unknown attribute ${term.attribute}; expected ${Object.keys(schema.attributes).join(", ")}`);
  if (attribute.kind === "time" && term.operator !== "" && Number.isNaN(Date.parse(term.value))) {
    throw badQuery(`compares ${term.attribute} with something that is not a time`);
  }
}

function matchesTime(recorded: string, term: Term): boolean {
  if (term.operator === "") return recorded.toLowerCase().startsWith(term.value);
  const [at, limit] = [Date.parse(recorded), Date.parse(term.value)];
  return term.operator === ">" ? at > limit : at < limit;
}

function matchesTerm<T>(record: T, term: Term, schema: SearchSchema<T>): boolean {
  if (term.attribute === undefined) return schema.freeText(record).some((text) => text.toLowerCase().includes(term.value));
  const attribute = schema.attributes[term.attribute]!;
  const recorded = String(attribute.of(record));
  switch (attribute.kind) {
    case "time":
      return matchesTime(recorded, term);
    case "text":
      return recorded.toLowerCase().includes(term.value);
    default:
      return recorded.toLowerCase() === term.value;
  }
}

/** Terms grouped by what they look at: free text under the empty key. */
function byAttribute(terms: readonly Term[]): Map<string, Term[]> {
  const groups = new Map<string, Term[]>();
  for (const term of terms) groups.set(term.attribute ?? "", [...(groups.get(term.attribute ?? "") ?? []), term]);
  return groups;
}

/** Reads `q` (required, 400 when missing or naming an unknown attribute) into a test for records. */
export function readSearchQuery<T>(query: URLSearchParams, schema: SearchSchema<T>): (record: T) => boolean {
  const q = query.get("q");
  if (q === null || q.trim() === "") throw badQuery("is required");
  const terms = parseTerms(q);
  for (const term of terms) checkTerm(term, schema);
  const wanted = byAttribute(terms.filter((term) => !term.negated));
  const excluded = terms.filter((term) => term.negated);
  return (record) =>
    [...wanted.values()].every((group) => group.some((term) => matchesTerm(record, term, schema))) &&
    !excluded.some((term) => matchesTerm(record, term, schema));
}
