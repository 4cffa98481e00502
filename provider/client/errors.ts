/**
 * One error class for every failed API call, carrying the status, the request (authorization
 * redacted) and the response body; subclasses chosen by status so callers can branch on type.
 */
import { SETTINGS } from "../config";
import { UserFacingError } from "../errors";

export interface RequestSummary {
  method: string;
  url: string;
  headers: Record<string, string>;
}

export interface ApiErrorDetails {
  status: number;
  request: RequestSummary;
  /** The service's own text: the `message` of its Error body, or a description of the failure. */
  serviceMessage: string;
  responseBody?: unknown;
  responseHeaders?: Record<string, string>;
}

export class EtlApiError extends UserFacingError {
  readonly status: number;
  readonly request: RequestSummary;
  readonly serviceMessage: string;
  readonly responseBody?: unknown;
  readonly responseHeaders?: Record<string, string>;

  constructor(details: ApiErrorDetails) {
    super(`${details.request.method} ${pathOf(details.request.url)} failed with ${describeStatus(details.status)}: ${details.serviceMessage}`);
    this.name = new.target.name;
    this.status = details.status;
    this.request = details.request;
    this.serviceMessage = details.serviceMessage;
    this.responseBody = details.responseBody;
    this.responseHeaders = details.responseHeaders;
  }
}

export class BadRequestError extends EtlApiError {}
export class AuthenticationError extends EtlApiError {}
export class BillingRequiredError extends EtlApiError {}
export class PermissionError extends EtlApiError {}
export class NotFoundError extends EtlApiError {}
export class ValidationError extends EtlApiError {}
export class RateLimitError extends EtlApiError {}
export class ServerError extends EtlApiError {}

/** The request never got an HTTP answer (refused, reset, timed out). `status` is 0. */
export class ConnectionError extends EtlApiError {}

export interface UnreachedAddress {
  /** The origin tried, e.g. `http://127.0.0.1:1`. */
  origin: string;
  /** ECONNREFUSED, ENOTFOUND, a TLS code. */
  detail: string;
  /** What to check, after "check etl:apiUrl". */
  hint: string;
}

/**
 * No connection to the service could be made (the host does not resolve, the connection is
 * refused, no route, the TLS handshake failed): nothing of the request was sent, so it is safe
 * to send again and, for a create, its outcome is known: nothing was made.
 */
export class UnreachableError extends ConnectionError {
  /** How long the address had been unreachable when this was given up, 0 on a single attempt. */
  readonly unreachableForMs: number;

  constructor(
    request: RequestSummary,
    readonly address: UnreachedAddress,
    unreachableForMs = 0,
  ) {
    super({ status: 0, request, serviceMessage: describeUnreached(address, unreachableForMs) });
    this.unreachableForMs = unreachableForMs;
  }

  /** The same failure, having been unreachable for `ms`. */
  after(ms: number): UnreachableError {
    return new UnreachableError(this.request, this.address, ms);
  }
}

function describeUnreached({ origin, detail, hint }: UnreachedAddress, forMs: number): string {
  const during = forMs > 0 ? ` for ${Math.round(forMs / 1000)} s` : "";
  return `could not reach ${origin} (${detail})${during}: nothing was sent; check ${SETTINGS.apiUrl.key} (${hint})`;
}

/** The service could not answer now (unreachable, connection dropped, timed out, 5xx), rather than refused the request. */
export function isServiceUnavailable(error: unknown): error is EtlApiError {
  return error instanceof ConnectionError || error instanceof ServerError;
}

/**
 * A write that is not idempotent (creating a key, group, cluster or job) may or may not have
 * been applied: the connection dropped after sending, the request timed out, or the service
 * answered 5xx. It is never retried blindly; the resource looks for what it may have created
 * and adopts it, sending again only when it is certainly absent. `cause` is the failure seen.
 */
export class OutcomeUnknownError extends EtlApiError {
  constructor(readonly causeError: EtlApiError) {
    super({
      status: causeError.status,
      request: causeError.request,
      serviceMessage: `the outcome is unknown (${causeError.serviceMessage})`,
      responseBody: causeError.responseBody,
      responseHeaders: causeError.responseHeaders,
    });
  }
}

/**
 * The request was given up because the deployment was cancelled: an exchange safe to abandon
 * was aborted, or a wait before a retry was cut short. `status` is 0.
 */
export class RequestCancelledError extends EtlApiError {
  constructor(request: RequestSummary, reason: string) {
    super({ status: 0, request, serviceMessage: `given up: ${reason}` });
  }
}

const ERROR_CLASS_BY_STATUS: Record<number, typeof EtlApiError> = {
  400: BadRequestError,
  401: AuthenticationError,
  402: BillingRequiredError,
  403: PermissionError,
  404: NotFoundError,
  422: ValidationError,
  429: RateLimitError,
};

export function apiErrorFor(details: ApiErrorDetails): EtlApiError {
  const ErrorClass = ERROR_CLASS_BY_STATUS[details.status] ?? (details.status >= 500 ? ServerError : EtlApiError);
  return new ErrorClass(details);
}

const STATUS_TEXT: Record<number, string> = {
  0: "no response",
  400: "400 Bad Request",
  401: "401 Unauthorized",
  402: "402 Payment Required",
  403: "403 Forbidden",
  404: "404 Not Found",
  406: "406 Not Acceptable",
  415: "415 Unsupported Media Type",
  422: "422 Unprocessable Entity",
  429: "429 Too Many Requests",
  500: "500 Internal Server Error",
  502: "502 Bad Gateway",
  503: "503 Service Unavailable",
};

function describeStatus(status: number): string {
  return STATUS_TEXT[status] ?? String(status);
}

/** The path and query of a URL, for messages: the origin is the configured one anyway. */
export function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}

const REDACTED = "[REDACTED]";
const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie"]);

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : value]));
}
