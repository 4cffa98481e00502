import type { Clock } from "./clock";
import type { ValidFixtures } from "./fixtures";
import { seedAccount } from "./model";
import { seedProductUpdates } from "./model/product-updates";
import { Store } from "./store";

/** A store holding exactly what the fixtures describe. */
export function storeFromFixtures(fixtures: ValidFixtures, clock: Clock): Store {
  const store = new Store(clock);
  for (const account of fixtures.accounts) {
    store.addAccount({
      id: account.id,
      uid: account.uid,
      billing: account.billing,
      users: account.users.map((user) => ({ ...user, accountId: account.id })),
    });
    seedAccount(store, account);
  }
  seedProductUpdates(store, fixtures.productUpdates);
  return store;
}
