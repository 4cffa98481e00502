/**
 * A deadline for each exchange, headers and body together: past it the request is aborted and
 * fails as a ConnectionError that says it timed out. A request that timed out may have been
 * applied, so the retry policy treats it like a connection dropped after sending.
 */
import { ConnectionError } from "../errors";
import { withCause, type ApiRequest, type ApiResponse, type RequestFn } from "../http";
import { SETTINGS } from "../../config";

export const TIMEOUT_CODE = "ETL_REQUEST_TIMEOUT";

class DeadlinePassed extends Error {
  readonly code = TIMEOUT_CODE;
  constructor(timeoutMs: number) {
    super(`no complete answer within ${formatSeconds(timeoutMs)}`);
    this.name = "DeadlinePassed";
  }
}

export function withTimeout(inner: RequestFn, timeoutMs: number): RequestFn {
  return async <T>(req: ApiRequest): Promise<ApiResponse<T>> => {
    const controller = new AbortController();
    // Made only when the deadline passes: an error captures a stack trace, and every request would pay for it.
    const timer = setTimeout(() => controller.abort(new DeadlinePassed(timeoutMs)), timeoutMs);
    const signal = req.signal === undefined ? controller.signal : AbortSignal.any([req.signal, controller.signal]);
    try {
      return await inner<T>({ ...req, signal });
    } catch (error) {
      const reason: unknown = controller.signal.reason;
      if (reason instanceof DeadlinePassed && error instanceof ConnectionError) throw timedOut(error, reason, timeoutMs);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };
}

function timedOut(error: ConnectionError, deadline: DeadlinePassed, timeoutMs: number): ConnectionError {
  const replaced = new ConnectionError({
    status: 0,
    request: error.request,
    serviceMessage: `timed out: ${deadline.message} (${SETTINGS.requestTimeoutSeconds.key} is ${formatSeconds(timeoutMs)}), so the request was abandoned`,
  });
  return withCause(replaced, deadline);
}

export function isTimeout(error: ConnectionError): boolean {
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return code === TIMEOUT_CODE || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT";
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
