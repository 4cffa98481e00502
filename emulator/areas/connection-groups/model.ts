import { isoTime } from "../../clock";
import { defineTable, type Row, type Store } from "../../store";
import { connectionFacts, type ConnectionFacts } from "../connections/interface";
import { userById } from "../users/interface";

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

/** Assignments are a set: kept in id order, so the same set always reads the same. */
export function sortedIds(ids: readonly number[]): number[] {
  return [...ids].sort((a, b) => a - b);
}

/**
 * A deleted connection leaves every group that held it (facts: a delete "invalidates every item
 * that references it"). The group's `updated_at` moves, so a client reading changes `since` sees
 * it; `modified_by` stays, since no user edited the group.
 */
export function detachDeletedConnection(store: Store, deleted: ConnectionFacts, atMs: number): void {
  const at = isoTime(atMs);
  for (const group of groupsOfAccount(store, deleted.accountId)) {
    if (!group.connectionIds.includes(deleted.id)) continue;
    store.update(CONNECTION_GROUPS, group, { connectionIds: group.connectionIds.filter((id) => id !== deleted.id), updatedAt: at });
  }
}

/** The service's JSON for a group (spec 2.7: every field, and no `url`, which 2.7 does not list). */
export function connectionGroupJson(store: Store, group: ConnectionGroupRow): Record<string, unknown> {
  const modifier = userById(store, group.modifiedByUserId);
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    account_id: group.accountId,
    modified_by: { name: modifier?.name ?? "", email: modifier?.email ?? "" },
    connections: group.connectionIds.flatMap((id) => {
      const connection = connectionFacts(store, group.accountId, id);
      return connection === undefined ? [] : [{ id: connection.id, name: connection.name, type: connection.type }];
    }),
    created_at: group.createdAt,
    updated_at: group.updatedAt,
  };
}
