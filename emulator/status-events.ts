import type { ClusterStatus, JobStatus } from "../contract/vocabularies";
import type { ClusterFacts } from "./areas/clusters/interface";
import type { JobFacts } from "./areas/jobs/interface";
import type { Store } from "./store";

/**
 * Status changes of jobs and clusters, announced by their areas as they happen (a client's
 * request or a lifecycle transition), to the areas that declare `Area.onStatusChange`, such as
 * hooks. Jobs and clusters know nothing of who listens, so a new listener needs no change to them.
 */

export type StatusChange =
  | { subject: "job"; row: JobFacts; previous: JobStatus | null; at: number }
  | { subject: "cluster"; row: ClusterFacts; previous: ClusterStatus | null; at: number };

/** Called inside the request or the lifecycle step that made the change: it must not wait for anything. */
export type StatusListener = (store: Store, change: StatusChange) => void;

/** Tells every listening area of the store; a listener's failure is reported and never stops the change or the others. */
export function announceStatusChange(store: Store, change: StatusChange): void {
  for (const { onStatusChange: listener } of store.areas) {
    if (listener === undefined) continue;
    try {
      listener(store, change);
    } catch (error) {
      process.stderr.write(`etl-emulator: a status listener failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
  }
}
