import { SORT_DIRECTIONS, type SortDirection } from "../contract/vocabularies";
import { HttpError } from "./http";

/**
 * The `sort` and `direction` query parameters of collections. Without `sort` records come in
 * the collection's default order: id order (creation order, stable across pages) unless it
 * names a key of its own (a search's relevance, connections' name).
 */

export type SortValue = string | number;
export type SortKeys<T> = Readonly<Record<string, (record: T) => SortValue>>;
export type Direction = SortDirection;

function compareValues(a: SortValue, b: SortValue): number {
  if (a < b) return -1;
  if (a > b) return 1;
  return 0;
}

function readDirection(query: URLSearchParams, fallback: Direction): Direction {
  const direction = query.get("direction") ?? fallback;
  if (!(SORT_DIRECTIONS as readonly string[]).includes(direction)) {
    throw new HttpError(400, `direction must be ${SORT_DIRECTIONS.join(" or ")}`);
  }
  return direction as Direction;
}

/** Returns a sorted copy; ties are broken by id so pages never overlap or skip records. */
export function sortRecords<T extends { id: number }>(
  records: readonly T[],
  query: URLSearchParams,
  keys: SortKeys<T>,
  defaultDirection: Direction = "asc",
  defaultSort?: string,
): T[] {
  const sort = query.get("sort") ?? defaultSort ?? null;
  const key = sort === null ? undefined : keys[sort];
  if (sort !== null && (key === undefined || !Object.hasOwn(keys, sort))) {
    throw new HttpError(400, `sort must be one of ${Object.keys(keys).join(", ")}`);
  }
  const sign = readDirection(query, defaultDirection) === "asc" ? 1 : -1;
  const primary = key ?? ((record: T) => record.id);
  return [...records].sort((a, b) => sign * (compareValues(primary(a), primary(b)) || compareValues(a.id, b.id)));
}
