import { HttpError } from "./http";
import { readSearchTerm } from "./query";
import { sortRecords, type SortKeys } from "./sorting";

/**
 * The service's search language (facts, "Search endpoints"), read the same way by every area's
 * `…/search?q=`: `attr:value`, `attr:"a b"`, `attr:>date`, `attr:<date`, `-attr:value` to
 * exclude; terms on one attribute are OR'd, terms on different attributes AND'd, and words
 * without an attribute are looked for in the record's text (name and description). Case is
 * ignored. Besides an area's own attributes, every record is searched by `created` and `updated`
 * (the facts list them as searchable), and results sort by `id`, `updated`, `created`, `name` or
 * `relevance`, which is the default, ascending unless `direction` says otherwise.
 */

/** Whether a record has a term's value (lower case). */
export type Matcher<T> = (record: T, value: string) => boolean;

/** What an area tells the language about its records. */
export interface SearchSpace<T> {
  /** The area's attributes besides `created` and `updated`, in the order a 400 lists them. */
  attributes: Readonly<Record<string, Matcher<T>>>;
  /** Whether a word without an attribute is in the record's name or description. */
  text: Matcher<T>;
}

/** What every searched record has: the date attributes and the sorts read these. */
export interface Searchable {
  id: number;
  name: string;
  createdAt: string;
  updatedAt: string;
}

const DATES = {
  created: (record: Searchable) => record.createdAt,
  updated: (record: Searchable) => record.updatedAt,
} as const;

type DateAttribute = keyof typeof DATES;

interface Term {
  /** Undefined for free text. */
  attribute: string | undefined;
  negated: boolean;
  comparison: "=" | ">" | "<";
  /** Lower case; for a comparison, milliseconds since the epoch as text. */
  value: string;
}

/** The value anywhere in the text, in any case; no text has nothing. */
export function contains(text: string | null, value: string): boolean {
  return typeof text === "string" && text.toLowerCase().includes(value);
}

/** An id or a word of a vocabulary (a status, a type): the whole value, in any case. */
export function exactly<T>(of: (record: T) => string | number): Matcher<T> {
  return (record, value) => String(of(record)).toLowerCase() === value;
}

/** Text such as a name: the value as part of any of the texts. */
export function inPart<T>(...texts: ((record: T) => string | null)[]): Matcher<T> {
  return (record, value) => texts.some((of) => contains(of(record), value));
}

const TERM = /(-?)(?:([a-z_]+):)?(?:"([^"]*)"|(\S+))/g;

function badQuery(detail: string): HttpError {
  return new HttpError(400, `q: ${detail}`);
}

function isDate(attribute: string): attribute is DateAttribute {
  return Object.hasOwn(DATES, attribute);
}

/** `q` is read lower-cased, and the ISO form wants its `T` and `Z` upper-case. */
function dateTerm(attribute: string, raw: string): string {
  const ms = Date.parse(raw.slice(1).toUpperCase());
  if (Number.isNaN(ms)) throw badQuery(`${attribute}:${raw} needs a date, e.g. ${attribute}:>2026-01-31`);
  return String(ms);
}

function parseTerm<T>(space: SearchSpace<T>, negated: boolean, attribute: string | undefined, value: string): Term {
  if (attribute === undefined || Object.hasOwn(space.attributes, attribute)) return { attribute, negated, comparison: "=", value };
  if (!isDate(attribute)) {
    const known = [...Object.keys(space.attributes), ...Object.keys(DATES)].join(", ");
    throw badQuery(`${attribute} is not a searchable attribute; expected one of ${known}`);
  }
  if (!/^[<>]/.test(value)) return { attribute, negated, comparison: "=", value };
  return { attribute, negated, comparison: value[0] as ">" | "<", value: dateTerm(attribute, value) };
}

/** The terms of `q` (required, 400 when missing), or 400 naming an attribute the area does not search. */
function readTerms<T>(query: URLSearchParams, space: SearchSpace<T>): Term[] {
  const q = readSearchTerm(query);
  return [...q.matchAll(TERM)].map(([, minus, attribute, quoted, bare]) => parseTerm(space, minus === "-", attribute, quoted ?? bare ?? ""));
}

/** `created:2026-01` without a comparison finds the times that begin so: that month. */
function matchesDate(time: string, term: Term): boolean {
  if (term.comparison === "=") return time.toLowerCase().startsWith(term.value);
  const at = Date.parse(time);
  return term.comparison === ">" ? at > Number(term.value) : at < Number(term.value);
}

function matchesTerm<T extends Searchable>(space: SearchSpace<T>, record: T, term: Term): boolean {
  if (term.attribute === undefined) return space.text(record, term.value);
  if (isDate(term.attribute)) return matchesDate(DATES[term.attribute](record), term);
  return space.attributes[term.attribute]!(record, term.value);
}

/** Whether the record is found: no excluded term matches, and each attribute has a matching term. */
function matchesSearch<T extends Searchable>(space: SearchSpace<T>, record: T, terms: readonly Term[]): boolean {
  if (terms.some((term) => term.negated && matchesTerm(space, record, term))) return false;
  const wanted = terms.filter((term) => !term.negated);
  const attributes = new Set(wanted.map((term) => term.attribute));
  return [...attributes].every((attribute) => wanted.some((term) => term.attribute === attribute && matchesTerm(space, record, term)));
}

/** How many of the terms looking for something the record matches: its `relevance`. */
function relevance<T extends Searchable>(space: SearchSpace<T>, record: T, terms: readonly Term[]): number {
  return terms.filter((term) => !term.negated && matchesTerm(space, record, term)).length;
}

/** Negated, so that ascending (the default direction) puts the most relevant first. */
function searchSortKeys<T extends Searchable>(scores: ReadonlyMap<number, number>): SortKeys<T> {
  return {
    id: (record) => record.id,
    updated: (record) => record.updatedAt,
    created: (record) => record.createdAt,
    name: (record) => record.name,
    relevance: (record) => -(scores.get(record.id) ?? 0),
  };
}

/** The records `q` finds, sorted as `sort` and `direction` ask; 400 for a bad `q`, `sort` or `direction`. */
export function searchRecords<T extends Searchable>(records: readonly T[], query: URLSearchParams, space: SearchSpace<T>): T[] {
  const terms = readTerms(query, space);
  const found = records.filter((record) => matchesSearch(space, record, terms));
  const scores = new Map(found.map((record) => [record.id, relevance(space, record, terms)]));
  // `sort` defaults to `relevance` here, where lists default to id order.
  return sortRecords(found, query, searchSortKeys(scores), "asc", "relevance");
}
