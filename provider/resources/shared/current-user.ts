/**
 * Who the settings' API key belongs to. The service shows a user only what they may see and
 * answers 404 for the rest, so under another user's key an object of the stack looks deleted:
 * kinds that record their user ask this before taking a 404 for a delete.
 *
 * One `GET /user` per provider process, and none when an object read under the settings, or
 * their proof (settings-proof.ts), already showed who they are.
 */
import { getCurrentUser, type UserRecord } from "../../api/system";
import type { RequestFn } from "../../client/http";

/** Keyed by the configured request function: new settings make a new one. */
const knownIds = new WeakMap<RequestFn, number>();
const users = new WeakMap<RequestFn, Promise<UserRecord>>();

/** The user the settings' API key belongs to, asked once; a failed call is asked again next time. */
export function currentUser(request: RequestFn): Promise<UserRecord> {
  let user = users.get(request);
  if (user === undefined) {
    user = getCurrentUser(request);
    users.set(request, user);
    user.catch(() => users.delete(request));
  }
  return user;
}

export async function currentUserId(request: RequestFn): Promise<number> {
  const known = knownIds.get(request);
  if (known !== undefined) return known;
  const { id } = await currentUser(request);
  knownIds.set(request, id);
  return id;
}

/** An object found under these settings showed whose they are. */
export function noteCurrentUserId(request: RequestFn, userId: number | undefined): void {
  if (userId !== undefined && !knownIds.has(request)) knownIds.set(request, userId);
}
