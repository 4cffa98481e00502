import { z } from "zod";
import { HttpError, notFound, sendJson } from "../http";
import { invalid, parseBody, readObjectBody } from "../body";
import { paginate } from "../pagination";
import { parseId, type ApiContext, type Route } from "../routing";
import { sortRecords, type SortKeys } from "../sorting";
import { parseSshPublicKey } from "../../contract/ssh-public-key";
import { characterCount, MAX_NAME_LENGTH } from "../../contract/text";
import { findKeyOfUser, keysOfUser, PUBLIC_KEYS, publicKeyJson, type PublicKeyRow } from "../model/public-keys";

/**
 * SSH public keys of the authenticated user (`/user/keys`). Keys belong to one user within one
 * account: other users of the same account neither see nor touch them.
 */


const createBodySchema = z.object({
  name: z
    .string({ error: "name must be a string" })
    .max(MAX_NAME_LENGTH, `name must be at most ${MAX_NAME_LENGTH} characters`)
    .refine((name) => name.trim() !== "", "name must not be blank")
    .nullish(),
  public_key: z
    .string({ error: (issue) => (issue.input === undefined ? "public_key is required" : "public_key must be a string") })
    .refine((key) => key.trim() !== "", "public_key is required"),
});

const sortKeys: SortKeys<PublicKeyRow> = {
  created: (key) => key.createdAt,
  updated: (key) => key.updatedAt,
  name: (key) => key.name,
};

async function readCreateBody(ctx: ApiContext): Promise<z.output<typeof createBodySchema>> {
  return parseBody(createBodySchema, await readObjectBody(ctx.req));
}

async function createKey(ctx: ApiContext): Promise<void> {
  const body = await readCreateBody(ctx);
  const parsed = parseSshPublicKey(body.public_key);
  if (!parsed.ok) throw invalid([`public_key ${parsed.rule}`]);
  const name = body.name ?? parsed.key.comment;
  if (name === "") throw invalid(["name is required when public_key has no comment"]);
  if (characterCount(name) > MAX_NAME_LENGTH) {
    throw invalid([`name (taken from the key's comment) must be at most ${MAX_NAME_LENGTH} characters`]);
  }
  const { account, user } = ctx.caller;
  const owned = keysOfUser(ctx.store, account.id, user.id);
  if (owned.some((key) => key.fingerprint === parsed.key.fingerprint)) {
    throw invalid(["public_key has already been taken"]);
  }
  const now = new Date(ctx.store.clock.now()).toISOString();
  const key = ctx.store.insert(PUBLIC_KEYS, {
    accountId: account.id,
    userId: user.id,
    name,
    publicKey: body.public_key.trim(),
    fingerprint: parsed.key.fingerprint,
    comment: parsed.key.comment,
    createdAt: now,
    updatedAt: now,
  });
  sendJson(ctx.res, 201, publicKeyJson(key, ctx.baseUrl));
}

function sendKeyPage(ctx: ApiContext, keys: PublicKeyRow[]): void {
  const sorted = sortRecords(keys, ctx.query, sortKeys);
  const page = paginate(sorted, ctx.query, { origin: ctx.origin, pathname: ctx.pathname });
  sendJson(ctx.res, 200, page.items.map((key) => publicKeyJson(key, ctx.baseUrl)), page.headers);
}

function listKeys(ctx: ApiContext): void {
  sendKeyPage(ctx, keysOfUser(ctx.store, ctx.caller.account.id, ctx.caller.user.id));
}

/** `q` matches a key's id exactly or its name case-insensitively as a substring. */
function searchKeys(ctx: ApiContext): void {
  const q = ctx.query.get("q");
  if (q === null || q.trim() === "") throw new HttpError(400, "q is required");
  const needle = q.trim().toLowerCase();
  const keys = keysOfUser(ctx.store, ctx.caller.account.id, ctx.caller.user.id).filter((key) => String(key.id) === needle || key.name.toLowerCase().includes(needle));
  sendKeyPage(ctx, keys);
}

function getKey(ctx: ApiContext): void {
  const key = findKeyOfUser(ctx.store, ctx.caller.account.id, ctx.caller.user.id, parseId(ctx.params[0]));
  if (key === undefined) throw notFound();
  sendJson(ctx.res, 200, publicKeyJson(key, ctx.baseUrl));
}

/** Answers 200 with the deleted key, as the service does for every delete. */
function deleteKey(ctx: ApiContext): void {
  const key = findKeyOfUser(ctx.store, ctx.caller.account.id, ctx.caller.user.id, parseId(ctx.params[0]));
  if (key === undefined) throw notFound();
  ctx.store.remove(PUBLIC_KEYS, key);
  sendJson(ctx.res, 200, publicKeyJson(key, ctx.baseUrl));
}

export const publicKeyRoutes: readonly Route[] = [
  { pattern: /^\/user\/keys$/, methods: { GET: listKeys, POST: createKey } },
  { pattern: /^\/user\/keys\/search$/, methods: { GET: searchKeys } },
  { pattern: /^\/user\/keys\/([^/]+)$/, methods: { GET: getKey, DELETE: deleteKey } },
];
