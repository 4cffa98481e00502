import { z } from "zod";
import { canJoinGroups } from "../../../contract/limits";
import { defaultUserId, positiveId, seedRows, type FixtureAccount } from "../../fixtures/account";
import { fixtureProblem } from "../../fixtures/errors";
import type { Store } from "../../store";
import { accountFixtures } from "../area";
import { connectionFacts } from "../connections/interface";
import { CONNECTION_GROUPS, nameTaken, sortedIds } from "./model";

/** `connectionGroups` of an account: `connectionIds` name connections of the same account. */

const connectionGroupSchema = z.object({
  id: positiveId.optional(),
  name: z.string().min(1),
  description: z.string().nullable().default(null),
  connectionIds: z.array(positiveId).default([]),
});

type GroupFixture = z.output<typeof connectionGroupSchema>;

/** Fixture groups obey the rules the API enforces, so a seeded world is one the API could build. */
function checkGroupFixture(store: Store, account: FixtureAccount, group: GroupFixture, index: number): void {
  const fail = (field: string, detail: string): never => {
    throw fixtureProblem(account, `connectionGroups[${index}].${field}`, detail);
  };
  if (group.id !== undefined && store.list(CONNECTION_GROUPS).some((row) => row.id === group.id)) {
    fail("id", `duplicate connection group id ${group.id}`);
  }
  if (nameTaken(store, account.id, group.name)) fail("name", `duplicate name ${JSON.stringify(group.name)}`);
  group.connectionIds.forEach((connectionId, j) => {
    const connection = connectionFacts(store, account.id, connectionId);
    if (connection === undefined) fail(`connectionIds[${j}]`, `no connection ${connectionId} in this account`);
    else if (!canJoinGroups(connection.type)) fail(`connectionIds[${j}]`, `a ${connection.type} connection cannot join a group`);
    if (group.connectionIds.indexOf(connectionId) !== j) fail(`connectionIds[${j}]`, `connection ${connectionId} is listed twice`);
  });
}

function seedConnectionGroups(store: Store, account: FixtureAccount, groups: GroupFixture[]): void {
  seedRows(store, CONNECTION_GROUPS, groups, (group, index, now) => {
    checkGroupFixture(store, account, group, index);
    const modifiedByUserId = defaultUserId(account);
    return { ...group, accountId: account.id, connectionIds: sortedIds(group.connectionIds), modifiedByUserId, createdAt: now, updatedAt: now };
  });
}

export const connectionGroupFixtures = accountFixtures({
  field: "connectionGroups",
  schema: z.array(connectionGroupSchema).default([]),
  seed: seedConnectionGroups,
});
