import { ACCOUNTS, type AccountRecord } from "./areas/accounts/interface";
import { MEMBERSHIPS, type MembershipRow } from "./areas/members/interface";
import { USERS, type UserRecord } from "./areas/users/interface";
import { DEFAULT_REGION } from "./fixtures/account";
import { SERVICE_WIDE, type Row, type Snapshot } from "./store";

/**
 * A state.json written by an older emulator, brought to the present format as it loads. The
 * oldest keep each account's users inside the account; later ones keep accounts and users beside
 * the tables rather than in tables of their own.
 */

interface EmbeddedUser {
  id: number;
  name: string;
  email: string;
  apiKey: string;
}

type StoredAccount = Omit<AccountRecord, "accountId">;
type StoredUser = Omit<UserRecord, "accountId">;
type OldAccount = Partial<StoredAccount> & Pick<StoredAccount, "id" | "uid"> & { users?: EmbeddedUser[] };

/** A snapshot as any emulator wrote it: accounts and users beside the tables until they were tables. */
export type SavedSnapshot = Snapshot & { accounts?: OldAccount[]; users?: StoredUser[] };

function liftedUser(user: EmbeddedUser, now: string): StoredUser {
  const { id, name, email, apiKey } = user;
  return { id, name, email, apiKey, confirmed: true, confirmedAt: now, createdAt: now, updatedAt: now };
}

function upgradedAccount({ users: _, ...account }: OldAccount, now: string): StoredAccount {
  return { name: account.uid, region: DEFAULT_REGION, billing: true, createdAt: now, updatedAt: now, ...account };
}

/** Users lifted out of the accounts they were kept in: each once, a membership per account it was in, the first its owner. */
function withUsersOfTheirOwn(snapshot: SavedSnapshot & { accounts: OldAccount[] }, now: string): SavedSnapshot {
  const users = new Map<number, StoredUser>();
  const memberships: MembershipRow[] = [];
  for (const account of snapshot.accounts) {
    (account.users ?? []).forEach((user, j) => {
      if (!users.has(user.id)) users.set(user.id, liftedUser(user, now));
      const role = j === 0 ? "owner" : "member";
      memberships.push({ id: memberships.length + 1, accountId: account.id, userId: user.id, role, createdAt: now, updatedAt: now });
    });
  }
  const nextUserId = Math.max(0, ...users.keys()) + 1;
  return {
    ...snapshot,
    accounts: snapshot.accounts.map((account) => upgradedAccount(account, now)),
    users: [...users.values()],
    sequences: { ...snapshot.sequences, [USERS.name]: nextUserId, [MEMBERSHIPS.name]: memberships.length + 1 },
    tables: { ...snapshot.tables, [MEMBERSHIPS.name]: memberships },
  };
}

/** The next id after every row's, and after what the sequence had handed out already. */
function nextIdAfter(rows: readonly Row[], sequence: number | undefined): number {
  return Math.max(sequence ?? 1, ...rows.map((row) => row.id + 1));
}

/** Accounts and users moved into tables: an account's row is its own, a user's service-wide. */
function withAccountsAndUsersAsTables({ accounts = [], users = [], ...snapshot }: SavedSnapshot): Snapshot {
  const accountRows: AccountRecord[] = accounts.map((account) => ({ ...(account as StoredAccount), accountId: account.id }));
  const userRows: UserRecord[] = users.map((user) => ({ ...user, accountId: SERVICE_WIDE }));
  return {
    ...snapshot,
    sequences: {
      ...snapshot.sequences,
      [ACCOUNTS.name]: nextIdAfter(accountRows, snapshot.sequences[ACCOUNTS.name]),
      [USERS.name]: nextIdAfter(userRows, snapshot.sequences[USERS.name]),
    },
    tables: { ...snapshot.tables, [ACCOUNTS.name]: accountRows, [USERS.name]: userRows },
  };
}

/** The snapshot as it is when it is of the present format, else upgraded to it. */
export function upgradedSnapshot(snapshot: SavedSnapshot, now: string): Snapshot {
  if (snapshot.accounts === undefined) return snapshot;
  const withUsers = snapshot.users === undefined ? withUsersOfTheirOwn({ ...snapshot, accounts: snapshot.accounts }, now) : snapshot;
  return withAccountsAndUsersAsTables(withUsers);
}
