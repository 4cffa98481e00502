/**
 * Checks an API record against its schema, so a response that breaks the interface becomes a
 * clear error instead of wrong values in state.
 */
import { z } from "zod";
import type { ApiResponse } from "../client/http";
import { UserFacingError } from "../errors";

export class UnexpectedResponseError extends UserFacingError {
  constructor(what: string, problems: string) {
    super(`the service returned ${what} that does not match the API: ${problems}`);
    this.name = "UnexpectedResponseError";
  }
}

export function parseRecord<S extends z.ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join(".") || "body"}: ${issue.message}`)
    .join("; ");
  throw new UnexpectedResponseError(what, problems);
}

/** Where to start a page; the service's defaults apply to what is left out. */
export interface PageRequest {
  offset?: number;
  limit?: number;
}

/** One page of a collection with the `Link` header that locates its neighbours (RFC 5988). */
export interface Page<T> {
  items: T[];
  /** The raw header, undefined when there is no other page; follow its `rel="next"` as given. */
  link: string | undefined;
}

/** Checks a collection response item by item, so a bad item names its index. */
export function parsePage<S extends z.ZodType>(schema: S, response: ApiResponse, what: string): Page<z.output<S>> {
  const items = parseRecord(z.array(schema), response.body, what);
  return { items, link: response.headers.link };
}

type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** A record with its own field names in camelCase (`created_at` → `createdAt`). */
export type CamelCased<T> = { [K in keyof T as K extends string ? CamelCase<K> : K]: T[K] };

/** `created_at` → `createdAt`: a field's name as programs see it. */
export function camelCaseOf(apiName: string): string {
  return apiName.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

/**
 * Renames a record's own fields to camelCase, the way programs see them. Shallow on purpose:
 * values such as a package's `variables` are the user's data and keep their keys.
 */
export function camelCased<T extends object>(record: T): CamelCased<T> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [camelCaseOf(key), value])) as CamelCased<T>;
}
