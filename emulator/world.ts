import { AREAS } from "./areas";
import type { Clock } from "./clock";
import type { FixtureAccount } from "./fixtures/account";
import type { ValidFixtures } from "./fixtures";
import { Store } from "./store";

/** A store holding exactly what the fixtures describe: each account, then each area's part of it. */

function fieldOf(record: object, field: string): unknown {
  return (record as Record<string, unknown>)[field];
}

function seedAccount(store: Store, account: FixtureAccount): void {
  store.addAccount({
    id: account.id,
    uid: account.uid,
    billing: account.billing,
    users: account.users.map((user) => ({ ...user, accountId: account.id })),
  });
  for (const { accountFixtures: part } of AREAS) part?.seed(store, account, fieldOf(account, part.field));
}

export function storeFromFixtures(fixtures: ValidFixtures, clock: Clock): Store {
  const store = new Store(clock);
  for (const account of fixtures.accounts) seedAccount(store, account);
  for (const { serviceFixtures: part } of AREAS) part?.seed(store, fieldOf(fixtures, part.field));
  return store;
}
