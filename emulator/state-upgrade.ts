import { DEFAULT_REGION } from "./fixtures/account";
import { MEMBERSHIPS, type MembershipRow } from "./memberships";
import type { AccountRecord, Snapshot, UserRecord } from "./store";

/**
 * A state.json written before users had a table of their own keeps each account's users inside
 * the account. Loading it lifts them out: each user once, a membership per account it was in,
 * the account's first user its owner, as the fixtures of that time meant.
 */

interface EmbeddedUser {
  id: number;
  name: string;
  email: string;
  apiKey: string;
}

type OldAccount = Partial<AccountRecord> & Pick<AccountRecord, "id" | "uid"> & { users?: EmbeddedUser[] };

function liftedUser(user: EmbeddedUser, now: string): UserRecord {
  const { id, name, email, apiKey } = user;
  return { id, name, email, apiKey, confirmed: true, confirmedAt: now, createdAt: now, updatedAt: now };
}

function upgradedAccount({ users: _, ...account }: OldAccount, now: string): AccountRecord {
  return { name: account.uid, region: DEFAULT_REGION, billing: true, createdAt: now, updatedAt: now, ...account };
}

/** The snapshot as it is, or with its users lifted out of the accounts when it predates that. */
export function withUsersOfTheirOwn(snapshot: Omit<Snapshot, "users"> & { users?: UserRecord[] }, now: string): Snapshot {
  if (snapshot.users !== undefined) return snapshot as Snapshot;
  const users = new Map<number, UserRecord>();
  const memberships: MembershipRow[] = [];
  for (const account of snapshot.accounts as OldAccount[]) {
    (account.users ?? []).forEach((user, j) => {
      if (!users.has(user.id)) users.set(user.id, liftedUser(user, now));
      const role = j === 0 ? "owner" : "member";
      memberships.push({ id: memberships.length + 1, accountId: account.id, userId: user.id, role, createdAt: now, updatedAt: now });
    });
  }
  const nextUserId = Math.max(0, ...users.keys()) + 1;
  return {
    ...snapshot,
    accounts: (snapshot.accounts as OldAccount[]).map((account) => upgradedAccount(account, now)),
    users: [...users.values()],
    sequences: { ...snapshot.sequences, users: nextUserId, [MEMBERSHIPS.name]: memberships.length + 1 },
    tables: { ...snapshot.tables, [MEMBERSHIPS.name]: memberships },
  };
}
