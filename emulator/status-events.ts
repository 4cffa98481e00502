import type { ClusterRow } from "./areas/clusters/model";
import type { JobRow } from "./areas/jobs/model";
import type { ClusterStatus, JobStatus } from "../contract/vocabularies";
import type { Store } from "./store";

/**
 * Status changes of jobs and clusters, announced by their models as they happen (a client's
 * request or a lifecycle transition), for areas that react to them, such as hooks. Jobs and
 * clusters know nothing of who listens, so a new listener needs no change to them.
 */

export type StatusChange =
  | { subject: "job"; row: JobRow; previous: JobStatus | null; at: number }
  | { subject: "cluster"; row: ClusterRow; previous: ClusterStatus | null; at: number };

/** Called inside the request or the lifecycle step that made the change: it must not wait for anything. */
export type StatusListener = (store: Store, change: StatusChange) => void;

const listeners: StatusListener[] = [];

/** Listeners are registered once per process, by the module of the area that listens; each call gets its store. */
export function onStatusChange(listener: StatusListener): void {
  if (!listeners.includes(listener)) listeners.push(listener);
}

/** A listener's failure is reported and never stops the change or the other listeners. */
export function announceStatusChange(store: Store, change: StatusChange): void {
  for (const listener of listeners) {
    try {
      listener(store, change);
    } catch (error) {
      process.stderr.write(`etl-emulator: a status listener failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
  }
}
