import { z } from "zod";
import { parseSshPublicKey } from "../../../contract/ssh-public-key";
import { characterCount, MAX_NAME_LENGTH } from "../../../contract/text";
import { invalid, parseBody, readObjectBody } from "../../body";
import { label } from "../../fields";
import { notFound, sendJson } from "../../http";
import { sendPage } from "../../pagination";
import { readSearchTerm } from "../../query";
import { parseId, type ApiContext, type Route } from "../../routing";
import { sortRecords, type SortKeys } from "../../sorting";
import { findKeyOfUser, insertPublicKey, keysOfUser, PUBLIC_KEYS, publicKeyJson, type PublicKeyRow } from "./model";

/**
 * SSH public keys of the authenticated user (`/user/keys`). Keys belong to one user within one
 * account: other users of the same account neither see nor touch them.
 */

// Not strict: the facts show only these two fields, and a client sending more loses nothing.
const createBodySchema = z.object({
  name: label().nullish(),
  public_key: z.string().refine((key) => key.trim() !== "", "is required"),
});

const sortKeys: SortKeys<PublicKeyRow> = {
  created: (key) => key.createdAt,
  updated: (key) => key.updatedAt,
  name: (key) => key.name,
};

/** A key without a name is named by its comment, which must then make a valid name. */
function nameOf(given: string | null | undefined, comment: string): string {
  const name = given ?? comment;
  if (name === "") throw invalid(["name is required when public_key has no comment"]);
  if (characterCount(name) > MAX_NAME_LENGTH) {
    throw invalid([`name (taken from the key's comment) must be at most ${MAX_NAME_LENGTH} characters`]);
  }
  return name;
}

async function createKey(ctx: ApiContext): Promise<void> {
  const body = parseBody(createBodySchema, await readObjectBody(ctx.req));
  const parsed = parseSshPublicKey(body.public_key);
  if (!parsed.ok) throw invalid([`public_key ${parsed.rule}`]);
  const name = nameOf(body.name, parsed.key.comment);
  const { account, user } = ctx.caller;
  if (keysOfUser(ctx.store, account.id, user.id).some((key) => key.fingerprint === parsed.key.fingerprint)) {
    throw invalid(["public_key has already been taken"]);
  }
  const key = insertPublicKey(ctx.store, { accountId: account.id, userId: user.id, name, line: body.public_key, key: parsed.key });
  sendJson(ctx.res, 201, publicKeyJson(key, ctx.baseUrl));
}

function ownKeys(ctx: ApiContext): PublicKeyRow[] {
  return keysOfUser(ctx.store, ctx.caller.account.id, ctx.caller.user.id);
}

function sendKeyPage(ctx: ApiContext, keys: PublicKeyRow[]): void {
  sendPage(ctx, sortRecords(keys, ctx.query, sortKeys), (key) => publicKeyJson(key, ctx.baseUrl));
}

function listKeys(ctx: ApiContext): void {
  sendKeyPage(ctx, ownKeys(ctx));
}

/** `q` matches a key's id exactly or its name case-insensitively as a substring. */
function searchKeys(ctx: ApiContext): void {
  const needle = readSearchTerm(ctx.query);
  sendKeyPage(
    ctx,
    ownKeys(ctx).filter((key) => String(key.id) === needle || key.name.toLowerCase().includes(needle)),
  );
}

/** Another user's key is not found, exactly like one that does not exist. */
function findOwnKey(ctx: ApiContext): PublicKeyRow {
  const key = findKeyOfUser(ctx.store, ctx.caller.account.id, ctx.caller.user.id, parseId(ctx.params[0]));
  if (key === undefined) throw notFound();
  return key;
}

function getKey(ctx: ApiContext): void {
  sendJson(ctx.res, 200, publicKeyJson(findOwnKey(ctx), ctx.baseUrl));
}

/** Answers 200 with the deleted key, as the service does for every delete. */
function deleteKey(ctx: ApiContext): void {
  const key = ctx.store.remove(PUBLIC_KEYS, findOwnKey(ctx));
  sendJson(ctx.res, 200, publicKeyJson(key, ctx.baseUrl));
}

export const publicKeyRoutes: readonly Route[] = [
  { pattern: /^\/user\/keys$/, methods: { GET: listKeys, POST: createKey } },
  { pattern: /^\/user\/keys\/search$/, methods: { GET: searchKeys } },
  { pattern: /^\/user\/keys\/([^/]+)$/, methods: { GET: getKey, DELETE: deleteKey } },
];
