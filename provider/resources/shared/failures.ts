import { cancelledBecause } from "../../cancellation";
import { UserFacingError } from "../../errors";

/**
 * A failure the user can act on (a job that failed, a wait that timed out, an object that
 * cannot be adopted). Given the object's id, the engine keeps the object in state with these
 * properties (partial state), so the next `up` carries on from it instead of losing it.
 */
export class ResourceFailure extends UserFacingError {
  /**
   * For a failure that keeps the object the engine prints only these, and records them as the
   * resource's init errors, which is what makes the next `up` retry it even with unchanged inputs.
   */
  readonly reasons?: string[];

  constructor(
    message: string,
    readonly id?: string,
    readonly properties?: object,
  ) {
    super(message);
    this.name = "ResourceFailure";
    if (id !== undefined) this.reasons = [message];
  }
}

/**
 * A create refused because the account holds the value it sends once (a name, a key, an email),
 * and an object this stack does not record has it: what was found, and what the user can do.
 */
export class AlreadyInAccount extends ResourceFailure {
  constructor(
    /** "a public key with fingerprint … already exists as public key 3" */
    readonly found: string,
    /** "this stack's state does not have it (…). If it is this resource's, adopt it: …" */
    readonly unrecorded: string,
    message = `${found}, and ${unrecorded}`,
  ) {
    super(message);
  }
}

/** The latest reading a failed wait carries, or `fallback` when it has none. */
export function lastReading<T>(error: unknown, fallback: T): T {
  const last = (error as { last?: T } | null)?.last;
  return last ?? fallback;
}

export interface KeptObject {
  /** "cluster 202", "job 4". */
  what: string;
  id: string;
  /** Outputs as last seen, recorded as the resource's state. */
  properties: object;
  /** What the next command does with it: "the next `pulumi up` waits for it again". */
  next: string;
  /** Said when the deployment was cancelled: "the job is left running". */
  whenCancelled?: string;
}

/**
 * Whatever ended the wait for an object that exists (an outage longer than the retry budget, a
 * 429 past it, a broken response, a cancellation) becomes a failure that keeps the object, so
 * the next command carries on with it instead of making another. `signal` is the operation's,
 * which says whether the deployment was cancelled.
 */
export function keepingObject(error: unknown, kept: KeptObject, signal: AbortSignal): ResourceFailure {
  if (error instanceof ResourceFailure && error.id !== undefined) return error;
  const cancelled = cancelledBecause(signal);
  const what =
    cancelled !== undefined
      ? `${cancelled} while waiting for ${kept.what}${kept.whenCancelled === undefined ? "" : `; ${kept.whenCancelled}`}`
      : `waiting for ${kept.what} failed: ${waitFailureOf(error)}`;
  return new ResourceFailure(`${what}; it stays in the stack and ${kept.next}`, kept.id, kept.properties);
}

/**
 * What ended a wait, in words. A WaitInterruptedError already says what its read said; the
 * `cause` of an API error is the bare network failure, whose text names no request, so it is
 * never used.
 */
export function waitFailureOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
