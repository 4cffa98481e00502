import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { HttpError } from "./http";
import type { AccountRecord, Store, UserRecord } from "./store";

/**
 * HTTP Basic authentication (spec section 5): the API key is the username and the password is
 * empty. Every failure looks the same to the client, so a response never reveals whether an
 * account exists or which account a key belongs to.
 */

export const UNAUTHORIZED_MESSAGE = "Invalid or missing credentials.";

function unauthorized(): HttpError {
  return new HttpError(401, UNAUTHORIZED_MESSAGE, { "WWW-Authenticate": 'Basic realm="etl"' });
}

/** The API key from `Authorization: Basic base64(key + ":")`, or undefined if malformed. */
export function apiKeyFromHeader(header: string | undefined): string | undefined {
  const match = /^basic[ ]+([A-Za-z0-9+/]+={0,2})[ ]*$/i.exec(header ?? "");
  if (match === null) return undefined;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  // The spec fixes the password as empty; a client putting the key there is misconfigured.
  if (colon <= 0 || colon !== decoded.length - 1) return undefined;
  return decoded.slice(0, colon);
}

/** Digests have equal length, which timingSafeEqual needs, and hide the key's length. */
function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/** Each user's key digest, computed once: every request compares against all of them. */
const keyDigests = new WeakMap<UserRecord, Buffer>();

function keyDigestOf(user: UserRecord): Buffer {
  let cached = keyDigests.get(user);
  if (cached === undefined) {
    cached = digest(user.apiKey);
    keyDigests.set(user, cached);
  }
  return cached;
}

/** Compares against every user without stopping early, so timing does not reveal a match. */
function findUserByApiKey(store: Store, apiKey: string): UserRecord | undefined {
  const presented = digest(apiKey);
  let found: UserRecord | undefined;
  for (const user of store.users()) {
    if (timingSafeEqual(presented, keyDigestOf(user)) && found === undefined) found = user;
  }
  return found;
}

export interface Caller {
  account: AccountRecord;
  user: UserRecord;
}

/**
 * Resolves the caller of a request to `/<uid>/api`, or throws the 401. A host-root path names no
 * account (`accountUid` undefined): it serves the account of the key's user.
 */
export function authenticate(req: IncomingMessage, store: Store, accountUid: string | undefined): Caller {
  const apiKey = apiKeyFromHeader(req.headers.authorization);
  const user = apiKey === undefined ? undefined : findUserByApiKey(store, apiKey);
  const account = accountUid === undefined ? user && store.accountById(user.accountId) : store.accountByUid(accountUid);
  if (user === undefined || account === undefined || user.accountId !== account.id) {
    throw unauthorized();
  }
  return { account, user };
}
