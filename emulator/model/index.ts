import type { AccountFixture } from "../fixtures";
import type { Store } from "../store";
import { seedClusters } from "./clusters";
import { seedConnectionGroups } from "./connection-groups";
import { seedConnections } from "./connections";
import { seedInvoices } from "./invoices";
import { seedJobs } from "./jobs";
import { seedNotifications } from "./notifications";
import { seedPackages } from "./packages";
import { seedPublicKeys } from "./public-keys";

/** Turns an account's fixtures into rows, one area at a time; order matters where rows refer to others. */
const SEEDERS: ReadonlyArray<(store: Store, account: AccountFixture) => void> = [
  seedPublicKeys,
  seedPackages,
  seedConnections,
  seedConnectionGroups,
  seedClusters,
  seedJobs,
  seedInvoices,
  seedNotifications,
];

export function seedAccount(store: Store, account: AccountFixture): void {
  for (const seed of SEEDERS) seed(store, account);
}
