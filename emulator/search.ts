import { HttpError } from "./http";
import { readSearchTerm } from "./query";

/**
 * The service's search language (facts, "Search endpoints"): `attr:value`, `attr:"a b"`,
 * `attr:>date`, `attr:<date`, `-attr:value` to exclude; terms on one attribute are OR'd, terms on
 * different attributes AND'd, and words without an attribute are searched for in what the area
 * calls its text (name and description). Case is ignored. `created` and `updated` take dates.
 */

export interface SearchTerm {
  /** Undefined for free text. */
  attribute: string | undefined;
  negated: boolean;
  comparison: "=" | ">" | "<";
  /** Lower case; for a comparison, milliseconds since the epoch as text. */
  value: string;
}

/** How one attribute of a record is matched against a term's value (`=` terms only). */
export type AttributeMatchers<T> = Readonly<Record<string, (record: T, value: string) => boolean>>;

/** What `created:>` and `updated:<` compare: the record's time, in milliseconds. */
export type DateAttributes<T> = Readonly<Record<"created" | "updated", (record: T) => number>>;

export interface SearchSpace<T> {
  attributes: AttributeMatchers<T>;
  dates: DateAttributes<T>;
  text: (record: T, word: string) => boolean;
}

const TERM = /(-?)(?:([a-z_]+):)?(?:"([^"]*)"|(\S+))/g;

function badQuery(detail: string): HttpError {
  return new HttpError(400, `q: ${detail}`);
}

function dateTerm(attribute: string, raw: string): string {
  const ms = Date.parse(raw.slice(1).toUpperCase());
  if (Number.isNaN(ms)) throw badQuery(`${attribute}:${raw} needs a date, e.g. ${attribute}:>2026-01-31`);
  return String(ms);
}

function parseTerm<T>(space: SearchSpace<T>, negated: boolean, attribute: string | undefined, value: string): SearchTerm {
  if (attribute === undefined) return { attribute, negated, comparison: "=", value };
  if (Object.hasOwn(space.dates, attribute) && /^[<>]/.test(value)) {
    return { attribute, negated, comparison: value[0] as ">" | "<", value: dateTerm(attribute, value) };
  }
  if (!Object.hasOwn(space.attributes, attribute)) {
    const known = [...Object.keys(space.attributes), ...Object.keys(space.dates)].join(", ");
    throw badQuery(`${attribute} is not a searchable attribute; expected one of ${known}`);
  }
  return { attribute, negated, comparison: "=", value };
}

/** The terms of `q` (required, 400 when missing), or 400 naming an attribute the area does not search. */
export function readSearchQuery<T>(query: URLSearchParams, space: SearchSpace<T>): SearchTerm[] {
  const q = readSearchTerm(query);
  return [...q.matchAll(TERM)].map(([, minus, attribute, quoted, bare]) => parseTerm(space, minus === "-", attribute, quoted ?? bare ?? ""));
}

function matchesTerm<T>(space: SearchSpace<T>, record: T, term: SearchTerm): boolean {
  if (term.attribute === undefined) return space.text(record, term.value);
  if (term.comparison === "=") return space.attributes[term.attribute]!(record, term.value);
  const time = space.dates[term.attribute as keyof DateAttributes<T>](record);
  return term.comparison === ">" ? time > Number(term.value) : time < Number(term.value);
}

/** Whether the record is found: no excluded term matches, and each attribute has a matching term. */
export function matchesSearch<T>(space: SearchSpace<T>, record: T, terms: readonly SearchTerm[]): boolean {
  if (terms.some((term) => term.negated && matchesTerm(space, record, term))) return false;
  const wanted = terms.filter((term) => !term.negated);
  const attributes = new Set(wanted.map((term) => term.attribute));
  return [...attributes].every((attribute) => wanted.some((term) => term.attribute === attribute && matchesTerm(space, record, term)));
}

/** How many of the terms looking for something the record matches: the `relevance` of a result. */
export function relevance<T>(space: SearchSpace<T>, record: T, terms: readonly SearchTerm[]): number {
  return terms.filter((term) => !term.negated && matchesTerm(space, record, term)).length;
}
