import type { MemberRole } from "../../../contract/vocabularies";
import { isoTime } from "../../clock";
import { defineTable, type Row, type Store } from "../../store";
import { userById, type UserRecord } from "../users/interface";

/**
 * Who belongs to which account, with which role (facts, "Members"). Authentication rests on
 * these rows: a key names a user, and the user reaches an account only through a membership.
 * Each account has exactly one `owner` row.
 */

export interface MembershipRow extends Row {
  userId: number;
  role: MemberRole;
  createdAt: string;
  updatedAt: string;
}

export const MEMBERSHIPS = defineTable<MembershipRow>("memberships");

export interface Member {
  user: UserRecord;
  membership: MembershipRow;
}

export function membershipOf(store: Store, accountId: number, userId: number): MembershipRow | undefined {
  return store.list(MEMBERSHIPS, accountId).find((row) => row.userId === userId);
}

/** The account's members in the order they joined. */
export function membersOf(store: Store, accountId: number): Member[] {
  return store.list(MEMBERSHIPS, accountId).flatMap((membership) => {
    const user = userById(store, membership.userId);
    return user === undefined ? [] : [{ user, membership }];
  });
}

/** The user's memberships, oldest first: the first one is the account a host-root path serves. */
export function membershipsOfUser(store: Store, userId: number): MembershipRow[] {
  return store
    .list(MEMBERSHIPS)
    .filter((row) => row.userId === userId)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
}

export function ownerOf(store: Store, accountId: number): UserRecord | undefined {
  const owner = store.list(MEMBERSHIPS, accountId).find((row) => row.role === "owner");
  return owner === undefined ? undefined : userById(store, owner.userId);
}

export function addMembership(store: Store, accountId: number, user: UserRecord, role: MemberRole): MembershipRow {
  const now = isoTime(store.clock.now());
  return store.insert(MEMBERSHIPS, { accountId, userId: user.id, role, createdAt: now, updatedAt: now });
}

/** The name a user goes by where a name is shown: their email until they give a name. */
export function displayName(user: UserRecord): string {
  return user.name === "" ? user.email : user.name;
}
