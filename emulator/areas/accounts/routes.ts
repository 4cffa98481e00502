import { createHash } from "node:crypto";
import { accountCounters } from "../../account-counters";
import { sendJson, notFound } from "../../http";
import { membershipOf, membershipsOfUser, membersOf, ownerOf, type MembershipRow } from "../../memberships";
import { sendPage } from "../../pagination";
import { readTimeFilter } from "../../query";
import type { ApiContext, Route } from "../../routing";
import { sortRecords, type SortKeys } from "../../sorting";
import type { AccountRecord, Store } from "../../store";
import { matchesRoleFilter, permissionsOf, readRoleFilter, shownRole } from "../members/roles";

/**
 * The accounts the caller belongs to, at the host root (facts, "Accounts"): read only, since
 * accounts come from fixtures. An account the caller is not a member of is not found, exactly
 * like one that does not exist.
 */

/** The members, and what each area counts of the account's records (`account-counters.ts`). */
function counters(store: Store, accountId: number): Record<string, number> {
  return { members_count: membersOf(store, accountId).length, ...accountCounters(store, accountId) };
}

/** The SSH wire format of an ed25519 key (RFC 8709), its 32 bytes derived from the account. */
function accountPublicKey(account: AccountRecord): string {
  const field = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
  const point = createHash("sha256").update(`account ${account.id} ${account.uid}`).digest();
  const blob = Buffer.concat([field(Buffer.from("ssh-ed25519")), field(point)]);
  return `ssh-ed25519 ${blob.toString("base64")} ${account.uid}`;
}

export function accountJson(store: Store, account: AccountRecord, membership: MembershipRow, origin: string): Record<string, unknown> {
  const owner = ownerOf(store, account.id);
  return {
    id: account.id,
    account_id: account.uid,
    uname: `u_${account.id}`,
    name: account.name,
    region: account.region,
    location: null,
    billing_email: owner?.email ?? null,
    gravatar_email: null,
    avatar_url: null,
    role: shownRole(membership.role),
    permissions: permissionsOf(membership.role),
    owner_id: owner?.id ?? null,
    is_owner: membership.role === "owner",
    ...counters(store, account.id),
    public_key: accountPublicKey(account),
    tunnel_host: new URL(origin).hostname,
    created_at: account.createdAt,
    updated_at: account.updatedAt,
    url: `${origin}/accounts/${encodeURIComponent(account.uid)}`,
  };
}

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
    const account = store.accountById(membership.accountId);
    return account === undefined ? [] : [{ id: account.id, account, membership }];
  });
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
    return store.accountByUid(decodeURIComponent(segment ?? ""));
  } catch {
    return undefined;
  }
}

function getAccount(ctx: ApiContext): void {
  const account = accountNamed(ctx.store, ctx.params[0]);
  const membership = account === undefined ? undefined : membershipOf(ctx.store, account.id, ctx.caller.user.id);
  if (account === undefined || membership === undefined) throw notFound();
  sendJson(ctx.res, 200, accountJson(ctx.store, account, membership, ctx.origin));
}

export const accountsRoutes: readonly Route[] = [
  { pattern: /^\/accounts$/, methods: { GET: listAccounts } },
  { pattern: /^\/accounts\/([^/]+)$/, methods: { GET: getAccount } },
];
