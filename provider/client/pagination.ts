/**
 * Following a collection's pages through the RFC 5988 `Link` header, as the service asks:
 * `rel="next"` is followed as given, never computed from offsets.
 *
 * The header comes from the network, so the parser is a single forward scan (no regular
 * expression that could backtrack) and never throws: malformed parts are skipped.
 */
import type { z } from "zod";
import { parsePage, type Page } from "../api/records";
import type { ApiRequest, ApiResponse, RequestFn } from "./http";
import { pathOf } from "./errors";
import { UserFacingError } from "../errors";

export interface LinkValue {
  /** The target as written between `<` and `>`; possibly a relative reference. */
  url: string;
  /** Relation types of `rel`, lowercased (`rel="next last"` gives both). */
  rel: string[];
  /** Parameters by lowercased name; only the first occurrence of a name counts (RFC 8288 3.3). */
  params: Record<string, string>;
}

// biome-ignore lint/suspicious/noConstEnum: used in this file only, where the compiler inlines each code in the scanning loop
const enum Char {
  Tab = 9,
  LineFeed = 10,
  CarriageReturn = 13,
  Space = 32,
  Quote = 34,
  Comma = 44,
  Semicolon = 59,
  Less = 60,
  Equals = 61,
  Greater = 62,
  Backslash = 92,
}

function isWhitespace(code: number): boolean {
  return code === Char.Space || code === Char.Tab || code === Char.CarriageReturn || code === Char.LineFeed;
}

/** Characters that end a parameter name or an unquoted value. */
function endsToken(code: number): boolean {
  return (
    isWhitespace(code) ||
    code === Char.Semicolon ||
    code === Char.Comma ||
    code === Char.Equals ||
    code === Char.Quote ||
    code === Char.Less ||
    code === Char.Greater
  );
}

/** A forward-only cursor: every method moves ahead or stays, so a parse is linear in the input. */
class Scanner {
  position = 0;
  readonly length: number;
  constructor(readonly text: string) {
    this.length = text.length;
  }

  /** The character code at the cursor; NaN at the end, which equals nothing. */
  code(): number {
    return this.text.charCodeAt(this.position);
  }

  skipWhitespace(): void {
    while (this.position < this.length && isWhitespace(this.code())) this.position++;
  }

  token(): string {
    const start = this.position;
    while (this.position < this.length && !endsToken(this.code())) this.position++;
    return this.text.slice(start, this.position);
  }

  /** A quoted-string with backslash escapes, the cursor on its opening quote; undefined when it never closes. */
  quoted(): string | undefined {
    const parts: string[] = [];
    let start = ++this.position;
    while (this.position < this.length) {
      const code = this.code();
      if (code === Char.Quote) {
        parts.push(this.text.slice(start, this.position++));
        return parts.join("");
      }
      if (code === Char.Backslash) {
        parts.push(this.text.slice(start, this.position));
        start = ++this.position;
      }
      this.position++;
    }
    return undefined;
  }

  /** Moves past the next comma (or to the end): the start of the next link-value. */
  skipPastComma(): void {
    const comma = this.text.indexOf(",", this.position);
    this.position = comma === -1 ? this.length : comma + 1;
  }
}

/** Reads `link-param`s after a target; false when a quoted value never closes. */
function readParams(scanner: Scanner, params: Map<string, string>): boolean {
  for (;;) {
    scanner.skipWhitespace();
    if (scanner.code() !== Char.Semicolon) return true;
    scanner.position++;
    scanner.skipWhitespace();
    const name = scanner.token();
    scanner.skipWhitespace();
    let value = "";
    if (scanner.code() === Char.Equals) {
      scanner.position++;
      scanner.skipWhitespace();
      const read = scanner.code() === Char.Quote ? scanner.quoted() : scanner.token();
      if (read === undefined) return false;
      value = read;
    }
    if (name === "") continue;
    const key = name.toLowerCase();
    if (!params.has(key)) params.set(key, value);
  }
}

/** Every well-formed link-value of a `Link` header, in order; never throws. */
export function parseLinkHeader(header: string | undefined): LinkValue[] {
  if (header === undefined) return [];
  const scanner = new Scanner(header);
  const links: LinkValue[] = [];
  while (scanner.position < scanner.length) {
    scanner.skipWhitespace();
    const code = scanner.code();
    if (code === Char.Comma) {
      scanner.position++;
      continue;
    }
    if (code !== Char.Less) {
      scanner.skipPastComma();
      continue;
    }
    const close = header.indexOf(">", scanner.position);
    // No `>` anywhere after this point means no further link can be complete either.
    if (close === -1) break;
    const url = header.slice(scanner.position + 1, close).trim();
    scanner.position = close + 1;
    const params = new Map<string, string>();
    if (!readParams(scanner, params)) break;
    scanner.skipWhitespace();
    if (scanner.position < scanner.length && scanner.code() !== Char.Comma) {
      scanner.skipPastComma();
      continue;
    }
    links.push({ url, rel: relationsOf(params.get("rel")), params: Object.fromEntries(params) });
  }
  return links;
}

function relationsOf(rel: string | undefined): string[] {
  return (rel ?? "")
    .toLowerCase()
    .split(/[ \t]+/)
    .filter((r) => r !== "");
}

/** The target of `rel="next"` exactly as the header gives it, or undefined on the last page. */
export function nextLink(header: string | undefined): string | undefined {
  return parseLinkHeader(header).find((link) => link.rel.includes("next"))?.url;
}

export const MAX_PAGES = 1_000;

export class PaginationError extends UserFacingError {
  constructor(message: string) {
    super(message);
    this.name = "PaginationError";
  }
}

export interface CollectOptions {
  /** Pages to read at most, the first one included; more is an error, never a silent stop. */
  maxPages?: number;
  /** What the collection holds, for messages, e.g. "CRM objects". */
  what?: string;
  /**
   * For a listing in order (newest first): the first item this accepts ends the collection,
   * itself left out, so only the pages that hold what comes before it are read.
   */
  until?: (item: never) => boolean;
}

/**
 * Where the first page comes from: a request, or one of the typed page calls of `../api`
 * (which keeps each path in one place).
 */
export type FirstPage<T> = ApiRequest | ((request: RequestFn) => Promise<Page<T>>);

interface ReadPage<T> {
  page: Page<T>;
  /** The address that answered, when the request function tells. */
  url: string | undefined;
}

/**
 * Every item of a collection: the first page, then each `rel="next"` until there is none. Each
 * followed URL goes through `request` as an absolute `url`, which refuses any address outside
 * `{base_url}`, so a `Link` pointing elsewhere never receives the credentials.
 */
export async function collectAllPages<S extends z.ZodType>(
  request: RequestFn,
  firstRequest: FirstPage<z.output<S>>,
  schema: S,
  options: CollectOptions = {},
): Promise<z.output<S>[]> {
  const maxPages = options.maxPages ?? MAX_PAGES;
  const what = options.what ?? "items";
  const items: z.output<S>[] = [];
  const visited = new Set<string>();
  let current = await readFirstPage(request, firstRequest, schema, what);
  for (let pages = 1; ; pages++) {
    const end = options.until === undefined ? -1 : current.page.items.findIndex((item) => options.until!(item as never));
    if (end >= 0) return [...items, ...current.page.items.slice(0, end)];
    items.push(...current.page.items);
    if (current.url !== undefined) visited.add(current.url);
    const next = nextLink(current.page.link);
    if (next === undefined) return items;
    const url = resolveTarget(next, current.url);
    if (visited.has(url)) {
      throw new PaginationError(`the service's Link rel="next" leads back to a page already read (${pathOf(url)}) while listing ${what}`);
    }
    if (pages >= maxPages) {
      throw new PaginationError(`stopped after ${maxPages} pages of ${what}: the service still announces a next page`);
    }
    current = await readPage(request, { method: "GET", url }, schema, what);
  }
}

async function readFirstPage<S extends z.ZodType>(request: RequestFn, first: FirstPage<z.output<S>>, schema: S, what: string): Promise<ReadPage<z.output<S>>> {
  if (typeof first !== "function") return readPage(request, first, schema, what);
  let url: string | undefined;
  const remembering: RequestFn = async <T>(req: ApiRequest): Promise<ApiResponse<T>> => {
    const response = await request<T>(req);
    url = response.url;
    return response;
  };
  const page = await first(remembering);
  return { page, url };
}

/** One page and the address that answered, which a relative `Link` is resolved against. */
export async function readPage<S extends z.ZodType>(request: RequestFn, req: ApiRequest, schema: S, what: string): Promise<ReadPage<z.output<S>>> {
  const response = await request(req);
  return { page: parsePage(schema, response, `a list of ${what}`), url: response.url ?? req.url };
}

/** A relative reference is resolved against the page it came from (RFC 8288 3.2). */
export function resolveTarget(target: string, base: string | undefined): string {
  try {
    return new URL(target, base).toString();
  } catch {
    throw new PaginationError(`the service's Link rel="next" is not a usable URL: ${JSON.stringify(target.slice(0, 200))}`);
  }
}
