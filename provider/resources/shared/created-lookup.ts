/**
 * What a create whose outcome is unknown may have made (see reconciler.ts), for every kind alike:
 * the kind's candidates (the newest of its listing, a search by name), of which those made within
 * the request's window that hold what the create sent. A kind says only where to look and what
 * else rules an object out (another owner, a terminating cluster).
 */
import type { z } from "zod";
import type { ApiRequest, RequestFn } from "../../client/http";
import { createdInWindow, createdSince } from "./reconcile";
import { ANY_OWNER, type OwnerCheck } from "./reconciler";

export interface CreatedLookupSpec<Rec, Inputs> {
  /** Where the objects a create sent at `sentAt` may have made are, newest first. */
  candidates(request: RequestFn, inputs: Inputs, sentAt: number): Promise<Rec[]>;
  /** Whether the object holds what the create sent, and could be the caller's. */
  madeBy(record: Rec, inputs: Inputs, owners: OwnerCheck): boolean;
}

export interface CreatedLookup<Rec, Inputs> {
  /** Whether a create sent at `sentAt` may have made this object. */
  matches(record: Rec, inputs: Inputs, sentAt: number, owners?: OwnerCheck): boolean;
  /** The objects, newest first, that a create sent at `sentAt` may have made. */
  find(request: RequestFn, inputs: Inputs, sentAt: number, owners?: OwnerCheck): Promise<Rec[]>;
}

/** A record that does not say when it was made (the service does not always) is not ruled out by time. */
export function createdLookup<Rec extends { created_at?: string | undefined }, Inputs>(spec: CreatedLookupSpec<Rec, Inputs>): CreatedLookup<Rec, Inputs> {
  const matches = (record: Rec, inputs: Inputs, sentAt: number, owners: OwnerCheck = ANY_OWNER) =>
    (record.created_at === undefined || createdInWindow(record.created_at, sentAt)) && spec.madeBy(record, inputs, owners);
  return {
    matches,
    find: async (request, inputs, sentAt, owners = ANY_OWNER) =>
      (await spec.candidates(request, inputs, sentAt)).filter((record) => matches(record, inputs, sentAt, owners)),
  };
}

/** The candidates of a newest-first listing: only the pages that reach back to the request's window are read. */
export function newestListed<S extends z.ZodType, Inputs>(
  record: S,
  what: string,
  firstPage: (inputs: Inputs) => ApiRequest,
): (request: RequestFn, inputs: Inputs, sentAt: number) => Promise<z.output<S>[]> {
  return (request, inputs, sentAt) => createdSince(request, firstPage(inputs), record, what, sentAt, (item) => (item as { created_at?: string }).created_at);
}
