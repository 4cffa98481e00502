import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import { authenticate, type Caller } from "./auth";
import { hasNoBody, takeFormBody } from "./body";
import { formBody, objectNamesOf } from "./form-query";
import { acceptsThisApi } from "./media-type";
import { Availability } from "./availability";
import { handleClientErrors, isClientGone, reportClientGone } from "./client-connections";
import { CONTROL_PREFIX, createControlHandler, type ControlHandler } from "./control";
import { CreditLedger, creditsExhaustedMessage, rateLimitHeaders, type CreditStatus } from "./credits";
import { FaultInjector, type FaultDecision, type FaultKind } from "./faults";
import { API_MEDIA_TYPE, HttpError, notFound, sendError, setResponseGate } from "./http";
import { advanceLifecycles } from "./lifecycle";
import type { Persistence } from "./persistence";
import { RequestLog } from "./request-log";
import { parseRequestTarget } from "./request-target";
import { AREAS } from "./areas";
import { isFreePath, matchRoute, type Route } from "./routing";
import type { Store } from "./store";

/** Every API route, below `{base_url}`: each area's own. */
const API_ROUTES = AREAS.flatMap((area) => area.routes);
/** The few API paths at the host root (facts, section 0), matched against the whole path. */
const ROOT_ROUTES = AREAS.flatMap((area) => area.rootRoutes ?? []);

/**
 * The HTTP front of the emulator. API requests go through, in order: the version header
 * check, authentication, injected faults, the credit allowance, then routing, so an
 * unversioned or unauthenticated request never learns which paths or records exist, and a
 * request stopped by a fault or the allowance never reaches a handler.
 */

const ACCEPT_MISMATCH_MESSAGE = `Not found: requests must send Accept: ${API_MEDIA_TYPE}`;

export interface EmulatorServer {
  server: Server;
  log: RequestLog;
  credits: CreditLedger;
  faults: FaultInjector;
  availability: Availability;
}

export interface ServerOptions {
  /** With `--data`: what a response acknowledges is saved before the response is sent. */
  persistence?: Persistence;
  credits?: CreditLedger;
  faults?: FaultInjector;
}

interface Services {
  store: Store;
  log: RequestLog;
  credits: CreditLedger;
  faults: FaultInjector;
  persistence: Persistence | undefined;
  /** `http://host:port` for links and `url` fields: never taken from the request. */
  origin: () => string;
}

/** What the log needs to know about an API request once it is over. */
interface ApiRequestState {
  caller?: Caller;
  fault: FaultDecision | null;
}

/** Thrown to end a request by closing its connection without a response. */
class DropConnection extends Error {}

interface ApiPath {
  /** The account the path names; undefined for a host-root path, which serves the caller's own. */
  uid: string | undefined;
  rest: string;
  routes: readonly Route[];
}

/** `/<uid>/api/<rest>` split into its parts, or a host-root API path; undefined outside the API space. */
function splitApiPath(pathname: string): ApiPath | undefined {
  const match = /^\/([^/]+)\/api(\/.*)?$/.exec(pathname);
  if (match === null) {
    return ROOT_ROUTES.some((route) => route.pattern.test(pathname)) ? { uid: undefined, rest: pathname, routes: ROOT_ROUTES } : undefined;
  }
  try {
    return { uid: decodeURIComponent(match[1]!), rest: match[2] ?? "", routes: API_ROUTES };
  } catch {
    return undefined;
  }
}

/** Answers that look like the service's own, so clients cannot tell injected ones apart. */
const FAULT_RESPONSES: Partial<Record<FaultKind, { status: number; message: string; headers?: Record<string, string> }>> = {
  "500": { status: 500, message: "Internal server error." },
  "503": { status: 503, message: "Service unavailable: try again later." },
  "429": { status: 429, message: "Rate Limit Exceeded: too many requests; retry in 1 second.", headers: { "Retry-After": "1" } },
};

/**
 * Faults that stop the request before it is applied end it here, without spending a credit;
 * `latency` and `reset_after` act later, around a request that is served as usual.
 */
function stopForFault(decision: FaultDecision, services: Services, caller: Caller): void {
  if (decision.kind === "reset_before") throw new DropConnection();
  const response = FAULT_RESPONSES[decision.kind];
  if (response === undefined) return;
  const headers = { ...rateLimitHeaders(services.credits.peek(caller.user.id)), ...response.headers };
  throw new HttpError(response.status, response.message, headers);
}

/**
 * Spends the call's credit, or refuses the call (spec section 8). A free call (the allowance's
 * own status, facts section 0) spends nothing and is never refused: the headers show the
 * allowance as it stands.
 */
function chargeCredit(res: ServerResponse, credits: CreditLedger, caller: Caller, free: boolean): CreditStatus {
  const status = free ? credits.peek(caller.user.id) : credits.charge(caller.user.id);
  for (const [name, value] of Object.entries(rateLimitHeaders(status))) res.setHeader(name, value);
  if (!free && !status.allowed) {
    throw new HttpError(429, creditsExhaustedMessage(status), { "Retry-After": String(status.renewsInSeconds) });
  }
  return status;
}

async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL, services: Services, state: ApiRequestState): Promise<void> {
  // Spec section 9: the router matches the header, in the forms the service accepts.
  if (!acceptsThisApi(req.headers.accept)) throw new HttpError(404, ACCEPT_MISMATCH_MESSAGE);
  const api = splitApiPath(url.pathname);
  if (api === undefined) throw notFound();
  const caller = authenticate(req, services.store, api.uid);
  state.caller = caller;
  const fault = services.faults.decide(req.method ?? "GET");
  state.fault = fault ?? null;
  if (fault !== undefined) stopForFault(fault, services, caller);
  const credits = chargeCredit(res, services.credits, caller, isFreePath(api.routes, api.rest));
  if (fault?.kind === "latency") await delay(fault.delayMs);
  const { handler, params } = matchRoute(api.routes, req.method ?? "GET", api.rest);
  const form = (req.method === "POST" || req.method === "PUT") && hasNoBody(req) ? formBody(url.searchParams) : undefined;
  if (form !== undefined) takeFormBody(req, form, objectNamesOf(api.rest));
  advanceLifecycles(services.store);
  const origin = services.origin();
  await handler({
    req,
    res,
    store: services.store,
    caller,
    params,
    query: url.searchParams,
    origin,
    pathname: url.pathname,
    baseUrl: `${origin}/${encodeURIComponent(caller.account.uid)}/api`,
    credits,
  });
}

/** Turns any failure into a response; the process must outlive every bad request. */
function respondToFailure(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  if (isClientGone(error)) {
    reportClientGone(req);
    res.destroy();
    return;
  }
  if (res.headersSent || error instanceof DropConnection) {
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

/**
 * Saves what the response acknowledges before it leaves; for `reset_after`, the request is
 * applied and saved all the same, and only then is the connection dropped; for `hold_after`, it
 * is applied and saved, and its answer held back.
 */
function gateResponse(res: ServerResponse, services: Services, state: ApiRequestState): void {
  setResponseGate(res, () => {
    services.persistence?.saveIfChanged();
    if (state.fault?.kind === "reset_after") return "drop";
    return state.fault?.kind === "hold_after" ? { holdMs: state.fault.delayMs } : "send";
  });
}

async function serveApi(req: IncomingMessage, res: ServerResponse, url: URL, services: Services): Promise<void> {
  const state: ApiRequestState = { fault: null };
  gateResponse(res, services, state);
  try {
    await handleApi(req, res, url, services, state);
  } catch (error) {
    respondToFailure(req, res, error);
  }
  // Logged once the response is written, before the client can send its next request.
  services.log.add({
    method: req.method ?? "GET",
    path: url.pathname,
    query: url.search.replace(/^\?/, ""),
    status: res.headersSent || state.fault?.kind === "hold_after" ? res.statusCode : 0,
    userId: state.caller?.user.id ?? null,
    fault: state.fault?.kind ?? null,
    time: new Date().toISOString(),
  });
}

/** Control paths are recognised only in the target as sent, never in a resolved one. */
async function route(req: IncomingMessage, res: ServerResponse, services: Services, control: ControlHandler): Promise<void> {
  const url = parseRequestTarget(req.url);
  const path = controlPath(url.pathname);
  if (path === undefined) return serveApi(req, res, url, services);
  await control(req, res, path);
}

export function createEmulatorServer(store: Store, origin: () => string, options: ServerOptions = {}): EmulatorServer {
  const services: Services = {
    store,
    log: new RequestLog(),
    credits: options.credits ?? new CreditLedger(),
    faults: options.faults ?? new FaultInjector(),
    persistence: options.persistence,
    origin,
  };
  const server = createServer();
  const availability = new Availability(server);
  const control = createControlHandler({ ...services, availability });
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    route(req, res, services, control).catch((error: unknown) => respondToFailure(req, res, error));
  });
  handleClientErrors(server);
  return { server, log: services.log, credits: services.credits, faults: services.faults, availability };
}
