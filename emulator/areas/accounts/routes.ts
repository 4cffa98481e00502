import { parseBody, readObjectBody } from "../../body";
import { isoTime } from "../../clock";
import { HttpError, notFound, sendJson } from "../../http";
import { sendPage } from "../../pagination";
import { readTimeFilter } from "../../query";
import type { ApiContext, Route } from "../../routing";
import { sortRecords, type SortKeys } from "../../sorting";
import type { Store } from "../../store";
import { addMembership, matchesRoleFilter, membershipOf, membershipsOfUser, readRoleFilter, requireManager, type MembershipRow } from "../members/interface";
import { accountJson } from "./json";
import {
  accountById,
  accountByUid,
  changedFields,
  changeSchema,
  createAccount as insertAccount,
  createSchema,
  removeAccount,
  requireFreeSlug,
  slugFromName,
  updateAccount,
  type AccountRecord,
} from "./model";

/**
 * The accounts the caller belongs to, at the host root (facts, "Accounts"). An account the caller
 * is not a member of is not found, exactly like one that does not exist. A new account is the
 * creator's: they own it, and the same API key reaches it at its own `{base_url}`.
 */

export const REFUSALS = {
  change: "Only the account's owner or an admin may change the account.",
  remove: "Only the account's owner may delete the account.",
} as const;

interface Belonging {
  id: number;
  account: AccountRecord;
  membership: MembershipRow;
}

const sortKeys: SortKeys<Belonging> = {
  created: (item) => item.account.createdAt,
  updated: (item) => item.account.updatedAt,
  id: (item) => item.account.id,
  name: (item) => item.account.name.toLowerCase(),
};

function belongings(store: Store, userId: number): Belonging[] {
  return membershipsOfUser(store, userId).flatMap((membership) => {
    const account = accountById(store, membership.accountId);
    return account === undefined ? [] : [{ id: account.id, account, membership }];
  });
}

function sendAccount(ctx: ApiContext, status: number, { account, membership }: Belonging): void {
  sendJson(ctx.res, status, accountJson(ctx.store, account, membership, ctx.origin));
}

function listAccounts(ctx: ApiContext): void {
  const role = readRoleFilter(ctx.query);
  const since = readTimeFilter(ctx.query, "since");
  const items = belongings(ctx.store, ctx.caller.user.id)
    .filter((item) => matchesRoleFilter(item.membership.role, role))
    .filter((item) => since === undefined || Date.parse(item.account.updatedAt) >= since);
  sendPage(ctx, sortRecords(items, ctx.query, sortKeys, "desc"), (item) => accountJson(ctx.store, item.account, item.membership, ctx.origin));
}

/** The account a path segment names; a segment that is not valid percent-encoding names none. */
function accountNamed(store: Store, segment: string | undefined): AccountRecord | undefined {
  try {
    return accountByUid(store, decodeURIComponent(segment ?? ""));
  } catch {
    return undefined;
  }
}

/** The account the path names with the caller's place in it, or 404. */
function findAccount(ctx: ApiContext): Belonging {
  const account = accountNamed(ctx.store, ctx.params[0]);
  const membership = account === undefined ? undefined : membershipOf(ctx.store, account.id, ctx.caller.user.id);
  if (account === undefined || membership === undefined) throw notFound();
  return { id: account.id, account, membership };
}

async function createAccount(ctx: ApiContext): Promise<void> {
  const body = parseBody(createSchema, await readObjectBody(ctx.req));
  if (body.account_id !== undefined) requireFreeSlug(ctx.store, body.account_id);
  const uid = body.account_id ?? slugFromName(ctx.store, body.name);
  const now = isoTime(ctx.store.clock.now());
  // A new account starts on a trial: job runs are not refused for want of billing information.
  const account = insertAccount(ctx.store, { uid, name: body.name, region: body.region, billing: true, createdAt: now, updatedAt: now });
  const membership = addMembership(ctx.store, account.id, ctx.caller.user, "owner");
  sendAccount(ctx, 201, { id: account.id, account, membership });
}

async function changeAccount(ctx: ApiContext): Promise<void> {
  const found = findAccount(ctx);
  requireManager(found.membership, REFUSALS.change);
  const body = parseBody(changeSchema, await readObjectBody(ctx.req));
  if (body.account_id !== undefined) requireFreeSlug(ctx.store, body.account_id, found.account);
  if (Object.keys(body).length > 0) {
    updateAccount(ctx.store, found.account, { ...changedFields(found.account, body), updatedAt: isoTime(ctx.store.clock.now()) });
  }
  sendAccount(ctx, 200, found);
}

/** Irreversible: every record of the account goes with it; its users stay. */
function deleteAccount(ctx: ApiContext): void {
  const found = findAccount(ctx);
  if (found.membership.role !== "owner") throw new HttpError(403, REFUSALS.remove);
  const shown = accountJson(ctx.store, found.account, found.membership, ctx.origin);
  removeAccount(ctx.store, found.account);
  sendJson(ctx.res, 200, shown);
}

export const accountsRoutes: readonly Route[] = [
  { pattern: /^\/accounts$/, methods: { GET: listAccounts, POST: createAccount } },
  { pattern: /^\/accounts\/([^/]+)$/, methods: { GET: (ctx) => sendAccount(ctx, 200, findAccount(ctx)), PUT: changeAccount, DELETE: deleteAccount } },
];
