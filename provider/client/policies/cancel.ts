/**
 * Giving up when the deployment is cancelled. Waits before a retry or a paced slot end at once;
 * an exchange that is safe to abandon (a read, an update, a delete) is aborted; a create already
 * on the wire is left to finish, since abandoning it would leave its outcome unknown, and so is
 * a request marked `finishOnCancel` (the lookup after such an outcome).
 */
import { EtlApiError, RequestCancelledError } from "../errors";
import { isIdempotent, type ApiRequest, type ApiResponse, type RequestFn } from "../http";
import type { Sleep } from "./clock";

export interface Cancellation {
  signal: AbortSignal;
  /** Why, in words: "the deployment was cancelled". */
  reason(): string;
}

/** A sleep that ends early, without failing, once `signal` aborts: the caller then checks it. */
export function cancellableSleep(sleep: Sleep, signal: AbortSignal | undefined): Sleep {
  if (signal === undefined) return sleep;
  return (ms) =>
    new Promise<void>((resolve, reject) => {
      if (signal.aborted) return resolve();
      const onAbort = () => resolve();
      signal.addEventListener("abort", onAbort, { once: true });
      sleep(ms).then(
        () => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        },
        (error: unknown) => {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      );
    });
}

/** Outermost policy: no new request after the cancellation, and idempotent ones end with it. */
export function withCancellation(inner: RequestFn, cancellation: Cancellation): RequestFn {
  return async <T>(req: ApiRequest): Promise<ApiResponse<T>> => {
    const abandonable = !(req.finishOnCancel ?? !isIdempotent(req));
    if (cancellation.signal.aborted && abandonable) throw cancelledError(req, cancellation);
    const signal = !abandonable ? req.signal : req.signal === undefined ? cancellation.signal : AbortSignal.any([req.signal, cancellation.signal]);
    try {
      return await inner<T>({ ...req, signal });
    } catch (error) {
      if (abandonable && cancellation.signal.aborted && error instanceof EtlApiError) throw cancelledError(req, cancellation, error);
      throw error;
    }
  };
}

function cancelledError(req: ApiRequest, cancellation: Cancellation, seen?: EtlApiError): RequestCancelledError {
  const request = seen?.request ?? { method: req.method, url: req.url ?? req.path ?? "", headers: {} };
  return new RequestCancelledError(request, cancellation.reason());
}
