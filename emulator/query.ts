import { z } from "zod";
import { RECORD_ID_TEXT } from "../contract/limits";
import { ANY_STATUS } from "../contract/vocabularies";
import { BOOLEAN_RULE, readBoolean } from "./booleans";
import { HttpError } from "./http";

/**
 * Query parameters of collections, read the same way on every route: a value that is not
 * understood is answered 400 naming the parameter and what it takes, never ignored. Paging is
 * read in `pagination.ts`, sorting in `sorting.ts`.
 */

function badParameter(message: string): HttpError {
  return new HttpError(400, message);
}

/** `status`: one of `statuses`, or `all` (the default) for any of them. */
export function readStatusFilter<S extends string>(query: URLSearchParams, statuses: readonly S[]): S | undefined {
  const status = query.get("status") ?? ANY_STATUS;
  if (status === ANY_STATUS) return undefined;
  if (!(statuses as readonly string[]).includes(status)) throw badParameter(`status must be all or one of ${statuses.join(", ")}`);
  return status as S;
}

/** A boolean in the spellings bodies take too (`booleans.ts`): `true`, `1`, `t` and their opposites. */
export function readBooleanFilter(query: URLSearchParams, name: string): boolean | undefined {
  const text = query.get(name);
  if (text === null) return undefined;
  const value = readBoolean(text);
  if (value === undefined) throw badParameter(`${name} ${BOOLEAN_RULE}`);
  return value;
}

/** A record id to filter on, e.g. `package_id`. */
export function readIdFilter(query: URLSearchParams, name: string): number | undefined {
  const text = query.get(name);
  if (text === null) return undefined;
  if (!RECORD_ID_TEXT.test(text)) throw badParameter(`${name} must be a positive integer`);
  return Number(text);
}

const dateTime = z.iso.datetime({ offset: true });

/** A point in time, as milliseconds since the epoch. */
export function readTimeFilter(query: URLSearchParams, name: string): number | undefined {
  const text = query.get(name);
  if (text === null) return undefined;
  if (!dateTime.safeParse(text).success) throw badParameter(`${name} must be an ISO 8601 date-time, e.g. 2026-01-31T12:00:00Z`);
  return Date.parse(text);
}

/** `q` of a search, required (spec 4.5): trimmed and lower-cased, as searches ignore case. */
export function readSearchTerm(query: URLSearchParams): string {
  const q = query.get("q");
  if (q === null || q.trim() === "") throw badParameter("q is required");
  return q.trim().toLowerCase();
}
