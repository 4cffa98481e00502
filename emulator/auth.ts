import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { HttpError } from "./http";
import { accountById, accountByUid, type AccountRecord } from "./areas/accounts/interface";
import { membershipOf, membershipsOfUser, type MembershipRow } from "./areas/members/interface";
import { allUsers, type UserRecord } from "./areas/users/interface";
import type { Store } from "./store";

/**
 * HTTP Basic authentication (spec section 5): the API key is the username and the password is
 * empty. The key names a user; the user reaches an account through a membership. Every failure
 * looks the same to the client (an unknown key, an unknown account, an account the user is not,
 * or no longer, a member of), so a response never reveals whether an account exists or which
 * accounts a key belongs to.
 */

export const UNAUTHORIZED_MESSAGE = "Invalid or missing credentials.";

function unauthorized(): HttpError {
  return new HttpError(401, UNAUTHORIZED_MESSAGE, { "WWW-Authenticate": 'Basic realm="etl"' });
}

/** The API key from `Authorization: Basic base64(key + ":")` (the colon may be left out), or undefined if malformed. */
export function apiKeyFromHeader(header: string | undefined): string | undefined {
  const match = /^basic[ ]+([A-Za-z0-9+/]+={0,2})[ ]*$/i.exec(header ?? "");
  if (match === null) return undefined;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  // The key alone, as some clients send it, is read as the key with its empty password.
  if (colon === -1) return decoded === "" ? undefined : decoded;
  // The spec fixes the password as empty; a client putting the key there is misconfigured.
  if (colon === 0 || colon !== decoded.length - 1) return undefined;
  return decoded.slice(0, colon);
}

/** Digests have equal length, which timingSafeEqual needs, and hide the key's length. */
function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/** Each user's key digest, computed once: every request compares against all of them. */
const keyDigests = new WeakMap<UserRecord, Buffer>();

function keyDigestOf(user: UserRecord, apiKey: string): Buffer {
  let cached = keyDigests.get(user);
  if (cached === undefined) {
    cached = digest(apiKey);
    keyDigests.set(user, cached);
  }
  return cached;
}

/** Compares against every user's key without stopping early, so timing does not reveal a match. */
function findUserByApiKey(store: Store, apiKey: string): UserRecord | undefined {
  const presented = digest(apiKey);
  let found: UserRecord | undefined;
  for (const user of allUsers(store)) {
    if (user.apiKey === undefined) continue;
    if (timingSafeEqual(presented, keyDigestOf(user, user.apiKey)) && found === undefined) found = user;
  }
  return found;
}

export interface Caller {
  account: AccountRecord;
  user: UserRecord;
  /** The user's place in `account`, with their role. */
  membership: MembershipRow;
}

/** The membership a request serves: in the account the path names, else the user's oldest. */
function membershipFor(store: Store, user: UserRecord, accountUid: string | undefined): MembershipRow | undefined {
  if (accountUid === undefined) return membershipsOfUser(store, user.id)[0];
  const account = accountByUid(store, accountUid);
  return account === undefined ? undefined : membershipOf(store, account.id, user.id);
}

/**
 * Resolves the caller of a request to `/<uid>/api`, or throws the 401. A host-root path names no
 * account (`accountUid` undefined): it serves the account the key's user joined first, and a
 * user who belongs to no account any more has nothing to be served.
 */
export function authenticate(req: IncomingMessage, store: Store, accountUid: string | undefined): Caller {
  const apiKey = apiKeyFromHeader(req.headers.authorization);
  const user = apiKey === undefined ? undefined : findUserByApiKey(store, apiKey);
  const membership = user === undefined ? undefined : membershipFor(store, user, accountUid);
  const account = membership === undefined ? undefined : accountById(store, membership.accountId);
  if (user === undefined || membership === undefined || account === undefined) throw unauthorized();
  return { account, user, membership };
}
