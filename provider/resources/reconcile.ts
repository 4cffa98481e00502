/**
 * Creates that are never duplicated. A POST that creates something is not idempotent: when its
 * outcome is unknown (the connection dropped after sending, a timeout, a 5xx), the object may
 * exist or not. Sending it again blindly could make two, so the resource first looks for what
 * the request may have made and adopts it; it sends again only when that is certainly absent,
 * and at most `MAX_ATTEMPTS` times in all.
 *
 * Within one provider process, several creates with identical inputs may reconcile at once
 * (`pulumi up --parallel`). Each object id is claimed once by the create that made or adopted
 * it, and a lookup waits for the other creates of its kind still waiting for an answer, so it
 * never takes an object whose creator is about to hear of it. The remaining limit: another
 * process (another stack, another person) creating an identical object in the same seconds
 * cannot be told apart from the one this request made, and may be adopted instead.
 */
import { z } from "zod";
import { parsePage } from "../api/records";
import { cancelSignal, isCancelled } from "../cancellation";
import { lookupPatienceMs } from "../context";
import { ConnectionError, EtlApiError, OutcomeUnknownError, RateLimitError, ServerError } from "../client/errors";
import { cancellableSleep } from "../client/policies/cancel";
import type { ApiRequest, RequestFn } from "../client/http";
import { nextLink } from "../client/pagination";
import { ResourceFailure } from "./failures";

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
 * been applied.
 */
export function isOutcomeUnknown(error: unknown): error is EtlApiError {
  return error instanceof OutcomeUnknownError || error instanceof ConnectionError || error instanceof ServerError;
}

/** What happened to the request, in words for the CLI. */
export function describeUnknownOutcome(error: EtlApiError): string {
  const seen = error instanceof OutcomeUnknownError ? error.causeError : error;
  if (seen.status === 0) return `the connection dropped after sending (${seen.serviceMessage})`;
  return `the service answered ${seen.status} (${seen.serviceMessage})`;
}

// ---- ids claimed by this process

const claimed = new Set<string>();

const claimKey = (kind: string, id: number | string) => `${kind}:${String(id)}`;

/** Takes an id for one create; false when another create of this process has it already. */
export function claim(kind: string, id: number | string): boolean {
  const key = claimKey(kind, id);
  if (claimed.has(key)) return false;
  claimed.add(key);
  return true;
}

export function isClaimed(kind: string, id: number | string): boolean {
  return claimed.has(claimKey(kind, id));
}

/** For tests: forgets every claim. */
export function resetClaims(): void {
  claimed.clear();
  inFlight.clear();
  ownerId = undefined;
}

// ---- creates waiting for an answer

const inFlight = new Map<string, Set<Promise<unknown>>>();

function inFlightOf(kind: string): Set<Promise<unknown>> {
  let set = inFlight.get(kind);
  if (set === undefined) inFlight.set(kind, (set = new Set()));
  return set;
}

async function tracked<T>(kind: string, send: () => Promise<T>): Promise<T> {
  const promise = send();
  const set = inFlightOf(kind);
  set.add(promise);
  try {
    return await promise;
  } finally {
    set.delete(promise);
  }
}

/** Waits until the creates of this kind sent so far have their answers (and so their claims). */
async function othersSettled(kind: string): Promise<void> {
  await Promise.allSettled([...inFlightOf(kind)]);
}

// ---- the user behind the API key

let ownerId: number | undefined;

/**
 * The API has no "who am I": the owner is learned from the records this process creates or
 * adopts (clusters and jobs carry `owner_id`). Until one is seen, any owner in the account matches.
 */
export function noteOwner(id: number): void {
  ownerId ??= id;
}

export function ownerMatches(recordOwner: number): boolean {
  return ownerId === undefined || ownerId === recordOwner;
}

// ---- the create

export interface CreateOnceOptions<T> {
  /** For messages and claims, e.g. "cluster". */
  kind: string;
  /** Sends the POST. */
  send: () => Promise<T>;
  /** The objects, newest first, that the request sent at `sentAt` may have made. Throws when it cannot tell. */
  find: (sentAt: number) => Promise<T[]>;
  idOf: (record: T) => number;
  /** Told when a found object is taken over. */
  log?: (line: string) => void;
  /** How long a failing lookup is tried again; by default as the configuration says (lookupPatienceMs). */
  patienceMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const LOOKUP_DELAYS = { firstMs: 2_000, maxMs: 30_000 } as const;

export interface Created<T> {
  record: T;
  /** True when the object was found after an unknown outcome rather than returned by the POST. */
  adopted: boolean;
}

/**
 * Sends the create, and on an unknown outcome looks for its object: adopts the first unclaimed
 * match, or sends again when there is none, at most `MAX_ATTEMPTS` times in all.
 */
export async function createOnce<T>(options: CreateOnceOptions<T>): Promise<Created<T>> {
  const { kind, idOf } = options;
  const log = options.log ?? ((line: string) => console.log(line));
  let lastError: EtlApiError | undefined;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const sentAt = Date.now();
    try {
      const record = await tracked(kind, options.send);
      claim(kind, idOf(record));
      return { record, adopted: false };
    } catch (error) {
      if (!isOutcomeUnknown(error)) throw error;
      lastError = error;
    }
    const what = describeUnknownOutcome(lastError);
    const found = await lookUp(options, sentAt, what);
    if (found !== undefined) {
      log(`${kind} create: ${what}; found ${kind} ${idOf(found)} created by it, adopting it`);
      return { record: found, adopted: true };
    }
    if (attempt < MAX_ATTEMPTS) log(`${kind} create: ${what}; no ${kind} was created by it, sending it again`);
  }
  throw new ResourceFailure(
    `${kind} create: sent ${MAX_ATTEMPTS} times and each time the outcome was unknown (last: ${describeUnknownOutcome(lastError!)}); ` +
      `no ${kind} was created by any of them; run \`pulumi up\` again later`,
  );
}

/** The first match no other create of this process has, claimed; a failed lookup is reported, never guessed. */
async function lookUp<T>(options: CreateOnceOptions<T>, sentAt: number, what: string): Promise<T | undefined> {
  const { kind } = options;
  let candidates: T[];
  try {
    candidates = await patiently(options, async () => {
      await othersSettled(kind);
      const found = await options.find(sentAt);
      await othersSettled(kind);
      return found;
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ResourceFailure(
      `${kind} create: ${what}, and looking for the ${kind} it may have created failed too (${reason}): ` +
        `the ${kind} may or may not have been created; look for it in the account before the next \`pulumi up\`, ` +
        `which creates one again (adopt one made by this request with importId instead)`,
    );
  }
  // Synchronous from here: no other create can claim between the check and the claim.
  return candidates.find((candidate) => claim(kind, options.idOf(candidate)));
}

/** Tries a lookup again while the service cannot answer, for `patienceMs`, unless the deployment is cancelled. */
async function patiently<T>(options: Pick<CreateOnceOptions<unknown>, "kind" | "log" | "patienceMs" | "sleep">, lookup: () => Promise<T>): Promise<T> {
  // A lookup that fails leaves the outcome unknown, and a later `up` could not tell the object
  // apart any more (its window is gone), so an outage is waited out longer than one request's.
  const patienceMs = options.patienceMs ?? lookupPatienceMs();
  const sleep = cancellableSleep(options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))), cancelSignal);
  const log = options.log ?? ((line: string) => console.log(line));
  const started = Date.now();
  for (let delay: number = LOOKUP_DELAYS.firstMs; ; delay = Math.min(LOOKUP_DELAYS.maxMs, delay * 2)) {
    try {
      return await lookup();
    } catch (error) {
      const waited = Date.now() - started;
      if (!isTransient(error) || isCancelled() || waited + delay > patienceMs) throw error;
      log(`${options.kind} create: looking for what the request made failed (${(error as Error).message}); trying again in ${Math.round(delay / 1000)} s`);
      await sleep(delay);
      if (isCancelled()) throw error;
    }
  }
}

/** The service could not answer now (unreachable, overloaded, rate limited), rather than refused. */
function isTransient(error: unknown): boolean {
  return error instanceof ConnectionError || error instanceof ServerError || error instanceof RateLimitError;
}

/**
 * Lookups after an unknown outcome are what keeps an object from being lost, so a cancelled
 * deployment lets those already on the wire finish (and send them at all); only waits before a
 * retry end at once.
 */
export function finishingOnCancel(request: RequestFn): RequestFn {
  return (req) => request({ ...req, finishOnCancel: true });
}

// ---- listings

/**
 * The items of a newest-first listing down to the first one `isOlder` rejects: the pages that
 * cover a recent window and no more.
 */
export async function collectRecent<S extends z.ZodType>(
  request: RequestFn,
  first: ApiRequest,
  schema: S,
  isOlder: (item: z.output<S>) => boolean,
  what: string,
): Promise<z.output<S>[]> {
  const items: z.output<S>[] = [];
  let req: ApiRequest = first;
  for (let pages = 1; ; pages++) {
    const response = await request(req);
    const page = parsePage(schema, response, `a list of ${what}`);
    for (const item of page.items) {
      if (isOlder(item)) return items;
      items.push(item);
    }
    const next = nextLink(page.link);
    if (next === undefined) return items;
    if (pages >= MAX_RECENT_PAGES) throw new Error(`the ${what} created in the last moments span more than ${MAX_RECENT_PAGES} pages`);
    req = { method: "GET", url: new URL(next, response.url).toString() };
  }
}
