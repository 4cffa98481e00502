import { createHash } from "node:crypto";
import type { Store } from "../../store";
import { membersOf, ownerOf, permissionsOf, shownRole, type MembershipRow } from "../members/interface";
import { avatarUrl } from "../users/interface";
import { accountCounters } from "./counters";
import type { AccountRecord } from "./model";

/** The account record (facts, "Accounts"), as the caller sees it: their role and permissions. */

/** The members, and what each area counts of the account's records (`counters.ts`). */
function counters(store: Store, accountId: number): Record<string, number> {
  return { members_count: membersOf(store, accountId).length, ...accountCounters(store, accountId) };
}

/**
 * The SSH wire format of an ed25519 key (RFC 8709), its 32 bytes derived from the account's id:
 * made once for the account, it stays when the account is renamed; only the comment follows.
 */
function accountPublicKey(account: AccountRecord): string {
  const field = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
  const point = createHash("sha256").update(`account ${account.id}`).digest();
  const blob = Buffer.concat([field(Buffer.from("ssh-ed25519")), field(point)]);
  return `ssh-ed25519 ${blob.toString("base64")} ${account.uid}`;
}

export function accountJson(store: Store, account: AccountRecord, membership: MembershipRow, origin: string): Record<string, unknown> {
  const owner = ownerOf(store, account.id);
  const gravatarEmail = account.gravatarEmail ?? null;
  return {
    id: account.id,
    account_id: account.uid,
    uname: `u_${account.id}`,
    name: account.name,
    region: account.region,
    location: account.location ?? null,
    // Until one is set, bills go to the owner.
    billing_email: account.billingEmail === undefined ? (owner?.email ?? null) : account.billingEmail,
    gravatar_email: gravatarEmail,
    avatar_url: gravatarEmail === null ? null : avatarUrl(gravatarEmail),
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
