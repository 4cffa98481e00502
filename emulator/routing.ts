import type { IncomingMessage, ServerResponse } from "node:http";
import type { Caller } from "./auth";
import type { CreditStatus } from "./credits";
import { RECORD_ID_TEXT } from "../contract/limits";
import { HttpError, notFound } from "./http";
import type { Row, Store, Table } from "./store";

/** Route tables: each area lists its paths (relative to `{base_url}`) and methods. */

export interface ApiContext {
  req: IncomingMessage;
  res: ServerResponse;
  store: Store;
  caller: Caller;
  /** Captured path segments of the matched route, still URL-encoded. */
  params: string[];
  query: URLSearchParams;
  /** `http://host:port` as the client addressed it. */
  origin: string;
  /** The full request path, for links back to the same collection. */
  pathname: string;
  /** `{base_url}` of the spec: `http://host:port/<account uid>/api`. */
  baseUrl: string;
  /** The caller's credit allowance once this call is paid for (or not, when it is free). */
  credits: CreditStatus;
}

export type Handler = (ctx: ApiContext) => Promise<void> | void;

export interface Route {
  /** Matched against the path below `{base_url}`, e.g. `/user/keys/12`. */
  pattern: RegExp;
  methods: Readonly<Partial<Record<string, Handler>>>;
  /** Calls to it cost no credit and are answered even when the allowance is used up. */
  free?: boolean;
}

export interface RouteMatch {
  handler: Handler;
  params: string[];
}

/** Whether the path is one whose calls cost nothing; unknown paths cost a credit like any other. */
export function isFreePath(routes: readonly Route[], path: string): boolean {
  return routes.find((route) => route.pattern.test(path))?.free === true;
}

/** First matching pattern wins, so fixed segments (`/search`) must precede `{id}` routes. */
export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
  for (const route of routes) {
    const match = route.pattern.exec(path);
    if (match === null) continue;
    const handler = route.methods[method];
    if (handler === undefined) {
      const allowed = Object.keys(route.methods).join(", ");
      throw new HttpError(405, `Method ${method} is not allowed here; allowed: ${allowed}.`, { Allow: allowed });
    }
    return { handler, params: match.slice(1) };
  }
  throw notFound();
}

/** Record ids are positive integers; anything else cannot name a record, so it is not found. */
export function parseId(text: string | undefined): number {
  if (text === undefined || !RECORD_ID_TEXT.test(text)) throw notFound();
  return Number(text);
}

/** The caller's account's row that the path's `index`th `{id}` names, or 404. */
export function findOwnRow<T extends Row>(ctx: ApiContext, table: Table<T>, index = 0): T {
  const row = ctx.store.find(table, ctx.caller.account.id, parseId(ctx.params[index]));
  if (row === undefined) throw notFound();
  return row;
}

/** `{origin}/{uid}`: where the web application shows a record, for `html_url`. */
export function webAppUrl(baseUrl: string): string {
  return baseUrl.replace(/\/api$/, "");
}
