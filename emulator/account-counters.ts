import type { Store } from "./store";

/**
 * The counters an account's JSON carries (facts, "Accounts": `packages_count`, `jobs_count`, …),
 * each given by the area whose records it counts, so the members area, which answers accounts,
 * reads no other area's rows. Registered once per process by the counting area's module.
 */

export type AccountCounter = (store: Store, accountId: number) => number;

const counters = new Map<string, AccountCounter>();

export function countPerAccount(name: string, count: AccountCounter): void {
  counters.set(name, count);
}

/** Every registered counter of the account, in a stable order. */
export function accountCounters(store: Store, accountId: number): Record<string, number> {
  return Object.fromEntries([...counters.keys()].sort().map((name) => [name, counters.get(name)!(store, accountId)]));
}
