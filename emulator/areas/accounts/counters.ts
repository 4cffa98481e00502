import type { Store } from "../../store";

/**
 * The counters an account's JSON carries (facts, "Accounts": `packages_count`, `jobs_count`, …),
 * each given by the area whose records it counts (`Area.counters`), so the accounts area reads no
 * other area's rows.
 */

/** Every counter the store's areas give, of the account, by name. */
export function accountCounters(store: Store, accountId: number): Record<string, number> {
  const counters = new Map(store.areas.flatMap((area) => Object.entries(area.counters ?? {})));
  return Object.fromEntries([...counters.keys()].sort().map((name) => [name, counters.get(name)!(store, accountId)]));
}
