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
 * never takes an object whose creator is about to hear of it. That state is the process's:
 * one Reconciler per provider process. The remaining limit: another process (another stack,
 * another person) creating an identical object in the same seconds cannot be told apart from the
 * one this request made, and may be adopted instead.
 */
import { isServiceUnavailable, RateLimitError, type EtlApiError } from "../../client/errors";
import { cancellableSleep } from "../../client/policies/cancel";
import { realClock, type Clock } from "../../client/policies/clock";

export { realClock };
import { ResourceFailure } from "./failures";
import type { RequestFn } from "../../client/http";
import { describeUnknownOutcome, isOutcomeUnknown, MAX_ATTEMPTS } from "./reconcile";

export interface CreateOnceOptions<T> {
  /** For messages and claims, e.g. "cluster". */
  kind: string;
  /** The request function `find` is given, made to finish its requests even when cancelled. */
  request: RequestFn;
  /** Sends the POST. */
  send: () => Promise<T>;
  /**
   * The objects, newest first, that the request sent at `sentAt` may have made, looked up with
   * `lookup`. Throws when it cannot tell.
   */
  find: (sentAt: number, lookup: RequestFn) => Promise<T[]>;
  idOf: (record: T) => number;
}

export interface Created<T> {
  record: T;
  /** True when the object was found after an unknown outcome rather than returned by the POST. */
  adopted: boolean;
}

export interface ReconcilerOptions {
  clock: Clock;
  /** How long a failing lookup is tried again, read when a lookup fails. */
  patienceMs: () => number;
  /** Told when a found object is taken over, or a lookup is tried again. */
  log: (line: string) => void;
  /** The operation's: aborted once the deployment is cancelled. */
  signal: AbortSignal;
}

const LOOKUP_DELAYS = { firstMs: 2_000, maxMs: 30_000 } as const;
/**
 * How long a cancelled deployment still tries a failing lookup: giving up leaves an object no
 * later `up` can tell apart, and a runner's grace after Ctrl-C is short, so a little while only.
 */
export const CANCELLED_LOOKUP_PATIENCE_MS = 20_000;

export class Reconciler {
  private readonly claimed = new Set<string>();
  private readonly inFlight = new Map<string, Set<Promise<unknown>>>();
  private ownerId: number | undefined;

  constructor(private readonly options: ReconcilerOptions) {}

  /** Takes an id for one create; false when another create of this process has it already. */
  claim(kind: string, id: number | string): boolean {
    const key = `${kind}:${String(id)}`;
    if (this.claimed.has(key)) return false;
    this.claimed.add(key);
    return true;
  }

  isClaimed(kind: string, id: number | string): boolean {
    return this.claimed.has(`${kind}:${String(id)}`);
  }

  /**
   * The API has no "who am I": the owner is learned from the records this process creates or
   * adopts (clusters and jobs carry `owner_id`). Until one is seen, any owner in the account matches.
   */
  noteOwner(id: number): void {
    this.ownerId ??= id;
  }

  ownerMatches(recordOwner: number): boolean {
    return this.ownerId === undefined || this.ownerId === recordOwner;
  }

  /**
   * Sends the create, and on an unknown outcome looks for its object: adopts the first unclaimed
   * match, or sends again when there is none, at most `MAX_ATTEMPTS` times in all.
   */
  async createOnce<T>(create: CreateOnceOptions<T>): Promise<Created<T>> {
    const { kind, idOf } = create;
    let lastError: EtlApiError | undefined;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const sentAt = this.options.clock.now();
      try {
        const record = await this.tracked(kind, create.send);
        this.claim(kind, idOf(record));
        return { record, adopted: false };
      } catch (error) {
        if (!isOutcomeUnknown(error)) throw error;
        lastError = error;
      }
      const what = describeUnknownOutcome(lastError);
      const found = await this.lookUp(create, sentAt, what);
      if (found !== undefined) {
        this.options.log(`${kind} create: ${what}; found ${kind} ${idOf(found)} created by it, adopting it`);
        return { record: found, adopted: true };
      }
      if (attempt < MAX_ATTEMPTS) this.options.log(`${kind} create: ${what}; no ${kind} was created by it, sending it again`);
    }
    throw new ResourceFailure(
      `${kind} create: sent ${MAX_ATTEMPTS} times and each time the outcome was unknown (last: ${describeUnknownOutcome(lastError!)}); ` +
        `no ${kind} was created by any of them; run \`pulumi up\` again later`,
    );
  }

  private async tracked<T>(kind: string, send: () => Promise<T>): Promise<T> {
    const promise = send();
    const set = this.inFlightOf(kind);
    set.add(promise);
    try {
      return await promise;
    } finally {
      set.delete(promise);
    }
  }

  private inFlightOf(kind: string): Set<Promise<unknown>> {
    let set = this.inFlight.get(kind);
    if (set === undefined) this.inFlight.set(kind, (set = new Set()));
    return set;
  }

  /** Waits until the creates of this kind sent so far have their answers (and so their claims). */
  private async othersSettled(kind: string): Promise<void> {
    await Promise.allSettled([...this.inFlightOf(kind)]);
  }

  /** The first match no other create of this process has, claimed; a failed lookup is reported, never guessed. */
  private async lookUp<T>(create: CreateOnceOptions<T>, sentAt: number, what: string): Promise<T | undefined> {
    const { kind } = create;
    let candidates: T[];
    try {
      candidates = await this.patiently(kind, async () => {
        await this.othersSettled(kind);
        const found = await create.find(sentAt, finishingOnCancel(create.request));
        await this.othersSettled(kind);
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
    return candidates.find((candidate) => this.claim(kind, create.idOf(candidate)));
  }

  /**
   * Tries a lookup again while the service cannot answer: a lookup that fails leaves the outcome
   * unknown, and a later `up` could not tell the object apart any more (its window is gone), so
   * an outage is waited out longer than one request's, and a cancelled deployment still tries
   * for a little while (CANCELLED_LOOKUP_PATIENCE_MS) rather than leave an object behind.
   */
  private async patiently<T>(kind: string, lookup: () => Promise<T>): Promise<T> {
    const { clock, log, signal } = this.options;
    const cancelled = () => signal.aborted;
    const cancellable = cancellableSleep(clock.sleep, signal);
    const started = clock.now();
    for (let delay: number = LOOKUP_DELAYS.firstMs; ; delay = Math.min(LOOKUP_DELAYS.maxMs, delay * 2)) {
      try {
        return await lookup();
      } catch (error) {
        const waited = clock.now() - started;
        const patience = cancelled() ? Math.min(this.options.patienceMs(), CANCELLED_LOOKUP_PATIENCE_MS) : this.options.patienceMs();
        if (!isTransient(error) || waited + delay > patience) throw error;
        log(`${kind} create: looking for what the request made failed (${(error as Error).message}); trying again in ${Math.round(delay / 1000)} s`);
        await (cancelled() ? clock.sleep(delay) : cancellable(delay));
      }
    }
  }
}

/** The service could not answer now (unreachable, overloaded, rate limited), rather than refused. */
function isTransient(error: unknown): boolean {
  return isServiceUnavailable(error) || error instanceof RateLimitError;
}

/**
 * Lookups after an unknown outcome are what keeps an object from being lost, so a cancelled
 * deployment lets those already on the wire finish (and send them at all); only waits before a
 * retry end at once.
 */
function finishingOnCancel(request: RequestFn): RequestFn {
  return (req) => request({ ...req, finishOnCancel: true });
}

/** Whether a record's owner may be this API user: the reconciler's knowledge, or none yet. */
export type OwnerCheck = Pick<Reconciler, "ownerMatches">;

/** Before any record has named this API user, any owner may be them. */
export const ANY_OWNER: OwnerCheck = { ownerMatches: () => true };
