import type { Store, Subscription, Topic } from "./store";

/**
 * How areas hear of one another's changes without knowing who listens: the area a change
 * happens in defines its topic and announces on it; an area that cares lists a subscription in
 * `Area.listeners`. A new listener needs no change to the area it listens to.
 */

export type { Topic } from "./store";

export function defineTopic<T>(name: string): Topic<T> {
  return { name };
}

/** Called inside the request or the lifecycle step that made the change: it must not wait for anything. */
export type Listener<T> = (store: Store, payload: T) => void;

export function hear<T>(topic: Topic<T>, listener: Listener<T>): Subscription {
  return { topic, listener };
}

/** Tells every listening area of the store; a listener's failure is reported and never stops the change or the others. */
export function announce<T>(store: Store, topic: Topic<T>, payload: T): void {
  for (const area of store.areas) {
    for (const { topic: heard, listener } of area.listeners ?? []) {
      if (heard !== topic) continue;
      try {
        (listener as Listener<T>)(store, payload);
      } catch (error) {
        process.stderr.write(`etl-emulator: a ${topic.name} listener failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      }
    }
  }
}
