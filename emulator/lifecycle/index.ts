import type { Store } from "../store";
import { advanceClusters } from "./clusters";
import { advanceJobs } from "./jobs";

/**
 * Brings every lifecycle up to the clock before a request is served, so what a client sees is
 * what time has made of each record. Clusters first: whether a job can start depends on them.
 */
export function advanceLifecycles(store: Store): void {
  advanceClusters(store);
  advanceJobs(store);
}
