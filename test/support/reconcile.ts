/**
 * Scripted answers for the create reconciliation's unit tests: a request function that answers
 * GETs from a table of pages, the failures that leave a create's outcome unknown, and a
 * reconciler on a clock that moves only when it sleeps.
 */
import { ConnectionError, OutcomeUnknownError, ServerError } from "../../provider/client/errors";
import type { ApiRequest, ApiResponse, RequestFn } from "../../provider/client/http";
import { Reconciler } from "../../provider/resources/shared/reconciler";

export const BASE = "http://service.test/acme/api";
export const SENT_AT = Date.parse("2026-05-01T12:00:00.000Z");
export const at = (offsetMs: number) => new Date(SENT_AT + offsetMs).toISOString();
export const request0 = { method: "POST", url: `${BASE}/x`, headers: {} };

export const dropped = () => new OutcomeUnknownError(new ConnectionError({ status: 0, request: request0, serviceMessage: "socket hang up" }));
export const answered500 = () => new ServerError({ status: 500, request: request0, serviceMessage: "Internal server error." });

/** Answers GETs from a table of path+query to pages; records every request. */
export function scripted(pages: Record<string, { body: unknown[]; next?: string }>): RequestFn & { seen: string[] } {
  const seen: string[] = [];
  const fn = (async (req: ApiRequest): Promise<ApiResponse> => {
    const url = req.url ?? `${BASE}${req.path}${queryOf(req.query)}`;
    const key = url.slice(BASE.length);
    seen.push(key);
    const page = pages[key];
    if (page === undefined) throw new Error(`unexpected request ${key}`);
    const headers: Record<string, string> = page.next === undefined ? {} : { link: `<${BASE}${page.next}>; rel="next"` };
    return { status: 200, headers, body: page.body, url };
  }) as RequestFn & { seen: string[] };
  fn.seen = seen;
  return fn;
}

function queryOf(query: Record<string, string | number | undefined> | undefined): string {
  const entries = Object.entries(query ?? {}).filter(([, v]) => v !== undefined) as [string, string | number][];
  return entries.length === 0 ? "" : `?${new URLSearchParams(entries.map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
}

export const unusedRequest: RequestFn = async () => {
  throw new Error("no request expected");
};

/** A reconciler of its own per test, on a clock that moves only when it sleeps; `slept` records the sleeps. */
export function reconcilerFor(patienceMs: number, lines: string[] = [], slept: number[] = [], signal: AbortSignal = new AbortController().signal): Reconciler {
  let now = SENT_AT;
  const clock = {
    now: () => now,
    sleep: async (ms: number) => {
      slept.push(ms);
      now += ms;
    },
  };
  return new Reconciler({ clock, patienceMs: () => patienceMs, log: (line) => lines.push(line), signal });
}
