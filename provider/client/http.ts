/**
 * The one request function every API call goes through. Policies (retries, pacing, pagination)
 * wrap a `RequestFn`; this module only speaks HTTP: address, headers, JSON, and errors.
 */
import type { Dispatcher } from "undici";
import { basicAuthorization } from "./auth";
import { SETTINGS, type ConnectionSettings } from "../config";
import { apiErrorFor, ConnectionError, redactHeaders, UnreachableError, type RequestSummary } from "./errors";
import { classifyNetworkFailure, UNREACHED_HINT } from "./network";
import { plainHttpGuard } from "./transport";
import { versionedMediaType } from "./versioning";
import { UserFacingError } from "../errors";

/**
 * Loaded at the first request (and kept by `require` for the next): a program that only declares
 * resources, and a provider process that only checks and diffs them (a preview), never pay for
 * loading the HTTP client.
 */
function undici(): typeof import("undici") {
  return require("undici") as typeof import("undici");
}

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** Addressed relative to `{base_url}`: the usual way. */
export interface PathRequest {
  method: HttpMethod;
  /** Relative to `{base_url}`, e.g. `/user/keys/12`. */
  path: string;
  /** The path is relative to the configured host instead, for the few areas at its root (`/hook_events`). */
  atHostRoot?: boolean;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  url?: never;
}

/**
 * Addressed by an absolute URL the service handed out (a `Link` target), sent as given. It must
 * have the configured origin and lie under `{base_url}`, or the credentials would go elsewhere.
 */
export interface UrlRequest {
  method: HttpMethod;
  url: string;
  body?: unknown;
  path?: never;
  query?: never;
  atHostRoot?: never;
}

/**
 * Whether sending the request twice does no harm. By default GET, PUT and DELETE are, and POST
 * (which creates) is not; a POST that is safe to repeat, such as marking notifications read,
 * says so. Retries of a request that is not idempotent are never blind.
 */
export interface RequestTraits {
  idempotent?: boolean;
  /**
   * Worth finishing even when the deployment is cancelled: a create on the wire, or a lookup
   * deciding whether an object was made. By default only POSTs are.
   */
  finishOnCancel?: boolean;
}

/** Lets a policy abandon the exchange, such as at a deadline; the failure is then a ConnectionError. */
export interface RequestControl {
  signal?: AbortSignal;
}

export type ApiRequest = (PathRequest | UrlRequest) & RequestTraits & RequestControl;

export function isIdempotent(req: ApiRequest): boolean {
  return req.idempotent ?? req.method !== "POST";
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  body: T;
  /** The address that answered, for resolving relative references in the response. */
  url?: string;
}

/** A URL outside `{base_url}`: refused before anything is sent. */
export class ForeignUrlError extends UserFacingError {
  constructor(url: string, base: string, reason: string) {
    super(`refusing to send the API key to ${withoutQuery(url)}: ${reason} (the configured {base_url} is ${base})`);
    this.name = "ForeignUrlError";
  }
}

export type RequestFn = <T = unknown>(request: ApiRequest) => Promise<ApiResponse<T>>;

export interface HttpOptions {
  /** Longest wait for response headers, and again for the body. */
  timeoutMs?: number;
  dispatcher?: Dispatcher;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** `{base_url}` of spec section 1: `<host>/<account_id>/api`. */
export function baseUrlOf(config: Pick<ConnectionSettings, "apiUrl" | "accountId">): string {
  return `${config.apiUrl}/${encodeURIComponent(config.accountId)}/api`;
}

export function createHttpRequest(config: ConnectionSettings, options: HttpOptions = {}): RequestFn {
  const base = baseUrlOf(config);
  const root = config.apiUrl;
  const fixedHeaders = {
    accept: versionedMediaType(config.vendor),
    authorization: basicAuthorization(config.apiKey),
    "user-agent": "pulumi-etl",
  };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const guard = plainHttpGuard(root, config.allowInsecureHttp, timeoutMs);

  return async <T>(req: ApiRequest): Promise<ApiResponse<T>> => {
    const url = urlFor(req.atHostRoot === true ? root : base, req);
    const headers: Record<string, string> = { ...fixedHeaders };
    let payload: string | undefined;
    if (req.body !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(req.body);
    }
    const summary: RequestSummary = { method: req.method, url, headers: redactHeaders(headers) };

    let response: Dispatcher.ResponseData;
    let text: string;
    try {
      await guard?.(req.signal);
      response = await undici().request(url, {
        method: req.method,
        headers,
        body: payload,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        dispatcher: options.dispatcher,
        signal: req.signal,
      });
      text = await response.body.text();
    } catch (cause) {
      // The guard's refusal of plain http: nothing was sent, and no retry would change that.
      if (cause instanceof UserFacingError) throw cause;
      throw connectionError(summary, cause, url);
    }

    const responseHeaders = flattenHeaders(response.headers);
    const parsed = parseJson(text);
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    if (!ok) {
      throw apiErrorFor({
        status: response.statusCode,
        request: summary,
        serviceMessage: withCredentialsHint(messageOf(parsed) ?? `the service answered without an error message`, response.statusCode, config.accountId),
        responseBody: parsed.ok ? parsed.value : text.slice(0, 500),
        responseHeaders,
      });
    }
    if (!parsed.ok) {
      throw apiErrorFor({
        status: response.statusCode,
        request: summary,
        serviceMessage: "the response body is not valid JSON",
        responseBody: text.slice(0, 500),
        responseHeaders,
      });
    }
    return { status: response.statusCode, headers: responseHeaders, body: parsed.value as T, url };
  };
}

function urlFor(base: string, req: ApiRequest): string {
  if (req.url !== undefined) return checkedAbsoluteUrl(base, req.url);
  const url = new URL(base + req.path);
  for (const [name, value] of Object.entries(req.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url.toString();
}

/** Same scheme, host and port as `{base_url}`, no user info, and a path under it once normalized. */
function checkedAbsoluteUrl(base: string, given: string): string {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new ForeignUrlError(given, base, "it is not an absolute URL");
  }
  const baseUrl = new URL(base);
  if (url.origin !== baseUrl.origin) throw new ForeignUrlError(given, base, `its origin is not ${baseUrl.origin}`);
  if (url.username !== "" || url.password !== "") throw new ForeignUrlError(given, base, "it carries user information");
  const prefix = baseUrl.pathname.replace(/\/+$/, "");
  if (url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) {
    throw new ForeignUrlError(given, base, `its path is not under ${prefix}`);
  }
  url.hash = "";
  return url.toString();
}

/** Origin and path only: a query or user information may hold secrets of someone else's. */
function withoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin + parsed.pathname;
  } catch {
    return JSON.stringify(url.length > 100 ? `${url.slice(0, 100)}…` : url);
  }
}

type Parsed = { ok: true; value: unknown } | { ok: false };

function parseJson(text: string): Parsed {
  if (text.trim() === "") return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** `{message}` as most errors say it; `{error_message}` as connection tests and validations do (facts, section 0). */
function messageOf(parsed: Parsed): string | undefined {
  if (!parsed.ok || typeof parsed.value !== "object" || parsed.value === null) return undefined;
  const { message, error_message: errorMessage } = parsed.value as { message?: unknown; error_message?: unknown };
  const said = [message, errorMessage].find((text) => typeof text === "string" && text !== "");
  return said as string | undefined;
}

function flattenHeaders(headers: Dispatcher.ResponseData["headers"]): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

/**
 * An UnreachableError when nothing was sent, else a ConnectionError: the connection was made and
 * then dropped, so the service may have received the request. The network failure stays
 * reachable as `cause`.
 */
function connectionError(summary: RequestSummary, cause: unknown, url: string): ConnectionError {
  const origin = new URL(url).origin;
  const { detail, unreached } = classifyNetworkFailure(cause);
  const error =
    unreached === undefined
      ? new ConnectionError({ status: 0, request: summary, serviceMessage: `the connection to ${origin} was dropped before a complete answer (${detail})` })
      : new UnreachableError(summary, { origin, detail, hint: UNREACHED_HINT[unreached] });
  return withCause(error, cause);
}

/** A 401 names the settings that make the credentials; the key itself never appears. */
function withCredentialsHint(serviceMessage: string, status: number, accountId: string): string {
  if (status !== 401) return serviceMessage;
  const { apiKey, accountId: account } = SETTINGS;
  return `${serviceMessage}; check ${apiKey.key} (or ${apiKey.env}) and ${account.key}: the key must be that of a user of account ${JSON.stringify(accountId)}`;
}

/** Non-enumerable, as the `cause` of `new Error(message, { cause })`, so copies and logs of the error leave it out. */
export function withCause<E extends Error>(error: E, cause: unknown): E {
  Object.defineProperty(error, "cause", { value: cause, enumerable: false, writable: true, configurable: true });
  return error;
}
