import type { z } from "zod";
import { isoTime } from "../../clock";
import { checkUnique, type FixtureAccount } from "../../fixtures/account";
import type { Store } from "../../store";
import type { AccountRecordFixtures } from "../area";
import { addAccount } from "./model";

/** The fixtures' accounts themselves: their ids and uids, told apart as in a single database. */

function checkAccounts(accounts: readonly FixtureAccount[], ctx: z.RefinementCtx): void {
  checkUnique(
    ctx,
    accounts.map((a, i) => ({ value: a.id, path: ["accounts", i, "id"] })),
    "account id",
  );
  checkUnique(
    ctx,
    accounts.map((a, i) => ({ value: a.uid, path: ["accounts", i, "uid"] })),
    "account uid",
  );
}

function seedAccount(store: Store, account: FixtureAccount): void {
  const now = isoTime(store.clock.now());
  const { id, uid, billing, region } = account;
  addAccount(store, { id, uid, name: account.name ?? uid, region, billing, createdAt: now, updatedAt: now });
}

export const accountFixtures: AccountRecordFixtures = { check: checkAccounts, seed: seedAccount };
