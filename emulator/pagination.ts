import { PAGE_LIMIT, PAGE_OFFSET_MIN } from "../contract/limits";
import { HttpError, sendJson } from "./http";
import type { ApiContext } from "./routing";

/**
 * Offset/limit pagination shared by every collection (spec sections 4.5 and 8), with the
 * position of neighbouring pages given in an RFC 5988 `Link` header.
 */

export interface PageRequest {
  /** Index of the first item to return, counted from 0. */
  offset: number;
  limit: number;
}

/** Digits only: `Number("")`, `Number("1e2")` or `parseInt("5abc")` would accept junk. */
function parseInteger(text: string): number | undefined {
  if (!/^\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}

function readParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number, rule: string): number {
  const text = query.get(name);
  if (text === null) return fallback;
  const value = parseInteger(text);
  if (value === undefined || value < min || value > max) {
    throw new HttpError(400, `${name} must be ${rule}`);
  }
  return value;
}

/** Reads `offset` and `limit`, or throws a 400 naming the parameter and its bounds. */
export function parsePageRequest(query: URLSearchParams): PageRequest {
  return {
    offset: readParam(query, "offset", PAGE_OFFSET_MIN, PAGE_OFFSET_MIN, Number.MAX_SAFE_INTEGER, `an integer greater than or equal to ${PAGE_OFFSET_MIN}`),
    limit: readParam(query, "limit", PAGE_LIMIT.default, PAGE_LIMIT.min, PAGE_LIMIT.max, `an integer between ${PAGE_LIMIT.min} and ${PAGE_LIMIT.max}`),
  };
}

/** Where the collection lives, as the client addressed it. */
export interface CollectionLocation {
  origin: string;
  pathname: string;
  query: URLSearchParams;
}

/** Same path and other parameters, with offset and limit last so links read predictably. */
function pageUrl(location: CollectionLocation, offset: number, limit: number): string {
  const params = new URLSearchParams(location.query);
  params.delete("offset");
  params.delete("limit");
  params.append("offset", String(offset));
  params.append("limit", String(limit));
  return `${location.origin}${location.pathname}?${params.toString()}`;
}

export function linkHeader(location: CollectionLocation, page: PageRequest, total: number): string | undefined {
  const links: string[] = [];
  if (page.offset + page.limit < total) {
    links.push(`<${pageUrl(location, page.offset + page.limit, page.limit)}>; rel="next"`);
  }
  if (page.offset > 0) {
    links.push(`<${pageUrl(location, Math.max(0, page.offset - page.limit), page.limit)}>; rel="prev"`);
  }
  return links.length > 0 ? links.join(", ") : undefined;
}

export interface PageResult<T> {
  items: T[];
  headers: { Link?: string };
}

/** Cuts one page out of an already ordered collection and describes its neighbours. */
export function paginate<T>(items: readonly T[], query: URLSearchParams, location: Omit<CollectionLocation, "query">): PageResult<T> {
  const page = parsePageRequest(query);
  const link = linkHeader({ ...location, query }, page, items.length);
  return {
    items: items.slice(page.offset, page.offset + page.limit),
    headers: link === undefined ? {} : { Link: link },
  };
}

/** Answers 200 with the page of `items` the request asks for, each as `json` makes it. */
export function sendPage<T>(ctx: ApiContext, items: readonly T[], json: (item: T) => unknown = (item) => item): void {
  const page = paginate(items, ctx.query, { origin: ctx.origin, pathname: ctx.pathname });
  sendJson(ctx.res, 200, page.items.map(json), page.headers);
}
