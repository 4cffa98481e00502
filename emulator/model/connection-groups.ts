import { FixturesError, type AccountFixture } from "../fixtures";
import { defineTable, type AccountRecord, type Row, type Store } from "../store";
import { canJoinGroups, CONNECTIONS } from "./connections";

/** Named sets of an account's database and cloud-storage connections (spec 2.7). */
export interface ConnectionGroupRow extends Row {
  name: string;
  description: string | null;
  /** Assigned connections: a set, kept in id order. */
  connectionIds: number[];
  /** The user who last created or changed the group. */
  modifiedByUserId: number;
  createdAt: string;
  updatedAt: string;
}

export const CONNECTION_GROUPS = defineTable<ConnectionGroupRow>("connectionGroups");

export function groupsOfAccount(store: Store, accountId: number): ConnectionGroupRow[] {
  return store.list(CONNECTION_GROUPS, accountId);
}

/** Names are unique within an account; `except` is the group being renamed. */
export function nameTaken(store: Store, accountId: number, name: string, except?: number): boolean {
  return groupsOfAccount(store, accountId).some((group) => group.name === name && group.id !== except);
}

type GroupFixture = AccountFixture["connectionGroups"][number];

/** Fixture groups obey the rules the API enforces, so a seeded world is one the API could build. */
function checkGroupFixture(store: Store, account: AccountFixture, group: GroupFixture, index: number): void {
  const fail = (detail: string): never => {
    throw new FixturesError(`invalid fixtures: account ${account.uid}: connectionGroups[${index}].${detail}`);
  };
  if (group.id !== undefined && store.list(CONNECTION_GROUPS).some((row) => row.id === group.id)) {
    fail(`id: duplicate connection group id ${group.id}`);
  }
  if (nameTaken(store, account.id, group.name)) fail(`name: duplicate name ${JSON.stringify(group.name)}`);
  group.connectionIds.forEach((connectionId, j) => {
    const connection = store.find(CONNECTIONS, account.id, connectionId);
    if (connection === undefined) fail(`connectionIds[${j}]: no connection ${connectionId} in this account`);
    else if (!canJoinGroups(connection.type)) fail(`connectionIds[${j}]: a ${connection.type} connection cannot join a group`);
    if (group.connectionIds.indexOf(connectionId) !== j) fail(`connectionIds[${j}]: connection ${connectionId} is listed twice`);
  });
}

export function seedConnectionGroups(store: Store, account: AccountFixture): void {
  const now = new Date(store.clock.now()).toISOString();
  account.connectionGroups.forEach((group, index) => {
    checkGroupFixture(store, account, group, index);
    store.insert(CONNECTION_GROUPS, {
      id: group.id,
      accountId: account.id,
      name: group.name,
      description: group.description,
      connectionIds: [...group.connectionIds].sort((a, b) => a - b),
      modifiedByUserId: account.users[0]!.id,
      createdAt: now,
      updatedAt: now,
    });
  });
}

/** The service's JSON for a group (spec 2.7: every field, and no `url`, which 2.7 does not list). */
export function connectionGroupJson(store: Store, account: AccountRecord, group: ConnectionGroupRow): Record<string, unknown> {
  const modifier = account.users.find((user) => user.id === group.modifiedByUserId);
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    account_id: group.accountId,
    modified_by: { name: modifier?.name ?? "", email: modifier?.email ?? "" },
    connections: group.connectionIds.flatMap((id) => {
      const connection = store.find(CONNECTIONS, group.accountId, id);
      return connection === undefined ? [] : [{ id: connection.id, name: connection.name, type: connection.type }];
    }),
    created_at: group.createdAt,
    updated_at: group.updatedAt,
  };
}
