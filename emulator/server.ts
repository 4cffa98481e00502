import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { authenticate, type Caller } from "./auth";
import { CONTROL_PREFIX, createControlHandler, type ControlHandler } from "./control";
import { API_MEDIA_TYPE, HttpError, notFound, requestOrigin, sendError, setResponseGate } from "./http";
import { advanceLifecycles } from "./lifecycle";
import type { Persistence } from "./persistence";
import { RequestLog } from "./request-log";
import { API_ROUTES } from "./routes";
import { matchRoute } from "./routing";
import type { Store } from "./store";

/**
 * The HTTP front of the emulator. API requests go through, in order: the version header
 * check, authentication, then routing, so an unversioned or unauthenticated request never
 * learns which paths or records exist.
 */

const ACCEPT_MISMATCH_MESSAGE = `Not found: requests must send Accept: ${API_MEDIA_TYPE}`;

export interface EmulatorServer {
  server: Server;
  log: RequestLog;
}

export interface ServerOptions {
  /** With `--data`: what a response acknowledges is saved before the response is sent. */
  persistence?: Persistence;
}

/** `/<uid>/api/<rest>` split into its parts; undefined for paths outside the API space. */
function splitApiPath(pathname: string): { uid: string; rest: string } | undefined {
  const match = /^\/([^/]+)\/api(\/.*)?$/.exec(pathname);
  if (match === null) return undefined;
  try {
    return { uid: decodeURIComponent(match[1]!), rest: match[2] ?? "" };
  } catch {
    return undefined;
  }
}

interface ApiRequestState {
  caller?: Caller;
}

async function handleApi(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  store: Store,
  fallbackHost: () => string,
  state: ApiRequestState,
): Promise<void> {
  // Spec section 9: the header is matched verbatim, as the service's router does.
  if (req.headers.accept !== API_MEDIA_TYPE) throw new HttpError(404, ACCEPT_MISMATCH_MESSAGE);
  const api = splitApiPath(url.pathname);
  if (api === undefined) throw notFound();
  const caller = authenticate(req, store, api.uid);
  state.caller = caller;
  const { handler, params } = matchRoute(API_ROUTES, req.method ?? "GET", api.rest);
  advanceLifecycles(store);
  const origin = requestOrigin(req, fallbackHost());
  await handler({
    req,
    res,
    store,
    caller,
    params,
    query: url.searchParams,
    origin,
    pathname: url.pathname,
    baseUrl: `${origin}/${encodeURIComponent(caller.account.uid)}/api`,
  });
}

/** Turns any failure into a response; the process must outlive every bad request. */
function respondToFailure(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (error instanceof HttpError) {
    sendError(res, error.status, error.message, error.headers);
    return;
  }
  process.stderr.write(`etl-emulator: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  sendError(res, 500, "Internal server error.");
}

function controlPath(pathname: string): string | undefined {
  if (pathname === CONTROL_PREFIX) return "";
  return pathname.startsWith(`${CONTROL_PREFIX}/`) ? pathname.slice(CONTROL_PREFIX.length) : undefined;
}

/** Origin-form targets are prefixed rather than resolved, so `//x` stays a path, not a host. */
function parseRequestUrl(target: string | undefined): URL {
  const base = "http://emulator.invalid";
  return target?.startsWith("/") ? new URL(`${base}${target}`) : new URL(target ?? "/", base);
}

function createRequestListener(
  store: Store,
  log: RequestLog,
  control: ControlHandler,
  fallbackHost: () => string,
  options: ServerOptions,
) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = parseRequestUrl(req.url);
    const path = controlPath(url.pathname);
    if (path !== undefined) {
      try {
        control(req, res, path);
      } catch (error) {
        respondToFailure(res, error);
      }
      return;
    }
    const state: ApiRequestState = {};
    setResponseGate(res, () => {
      options.persistence?.saveIfChanged();
      return "send";
    });
    try {
      await handleApi(req, res, url, store, fallbackHost, state);
    } catch (error) {
      respondToFailure(res, error);
    }
    // Logged once the response is written, before the client can send its next request.
    log.add({
      method: req.method ?? "GET",
      path: url.pathname,
      query: url.search.replace(/^\?/, ""),
      status: res.statusCode,
      userId: state.caller?.user.id ?? null,
      time: new Date().toISOString(),
    });
  };
}

export function createEmulatorServer(store: Store, fallbackHost: () => string, options: ServerOptions = {}): EmulatorServer {
  const log = new RequestLog();
  const listener = createRequestListener(store, log, createControlHandler(store, log), fallbackHost, options);
  const server = createServer((req, res) => {
    listener(req, res).catch((error: unknown) => respondToFailure(res, error));
  });
  return { server, log };
}
