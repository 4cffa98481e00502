/**
 * What reconciling a create with an unknown outcome is made of (see reconciler.ts): the window
 * in which its object was made, and what counts as an unknown outcome.
 */
import type { z } from "zod";
import { ConnectionError, type EtlApiError, OutcomeUnknownError, ServerError, UnreachableError } from "../../client/errors";
import type { ApiRequest, RequestFn } from "../../client/http";
import { collectAllPages } from "../../client/pagination";

export const MAX_ATTEMPTS = 3;
/**
 * How far before the moment of sending a created object's `created_at` may lie: the service's
 * clock and this machine's may disagree by this much.
 */
export const CLOCK_SKEW_MS = 15_000;
/** Pages of a newest-first listing read at most while looking for a recent object. */
const MAX_RECENT_PAGES = 20;

/** The oldest `created_at` an object made by a request sent at `sentAt` can have. */
export function windowStart(sentAt: number): number {
  return sentAt - CLOCK_SKEW_MS;
}

export function createdInWindow(createdAt: string, sentAt: number): boolean {
  const at = Date.parse(createdAt);
  return Number.isFinite(at) && at >= windowStart(sentAt);
}

/**
 * Whether a create's failure leaves its outcome unknown. Besides the client's own verdict, a
 * POST that got no answer or a 5xx counts too: the client never resends it, so it may have
 * been applied. A POST that never left (the address could not be reached) made nothing.
 */
export function isOutcomeUnknown(error: unknown): error is EtlApiError {
  if (error instanceof UnreachableError) return false;
  return error instanceof OutcomeUnknownError || error instanceof ConnectionError || error instanceof ServerError;
}

/** What happened to the request, in words for the CLI. */
export function describeUnknownOutcome(error: EtlApiError): string {
  const seen = error instanceof OutcomeUnknownError ? error.causeError : error;
  if (seen.status === 0) return `the connection dropped after sending (${seen.serviceMessage})`;
  return `the service answered ${seen.status} (${seen.serviceMessage})`;
}

/**
 * The records of a newest-first listing made within the window of a request sent at `sentAt`:
 * only the pages that hold them are read. A record without a creation time (the service does not
 * always say) does not end the listing.
 */
export async function createdSince<S extends z.ZodType>(
  request: RequestFn,
  newestFirst: ApiRequest,
  schema: S,
  what: string,
  sentAt: number,
  createdAtOf: (record: z.output<S>) => string | undefined,
): Promise<z.output<S>[]> {
  const since = windowStart(sentAt);
  const isOlder = (record: z.output<S>) => {
    const at = createdAtOf(record);
    return at !== undefined && Date.parse(at) < since;
  };
  return collectAllPages(request, newestFirst, schema, { what, maxPages: MAX_RECENT_PAGES, until: isOlder });
}
