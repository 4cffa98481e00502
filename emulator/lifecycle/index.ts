import type { Store } from "../store";
import { nextClusterTransition } from "./clusters";
import { nextJobTransition } from "./jobs";
import { comesBefore, LifecycleState, type Transition } from "./state";
import { nextValidationTransition } from "./validations";

export { LIFECYCLE_SECONDS } from "./durations";

/**
 * Brings every lifecycle up to the clock before a request is served. It is a discrete-event
 * simulation: the earliest due transition of any record is applied at its own time, then the
 * next, until none is due. What a client sees therefore depends only on the stored timestamps,
 * not on when requests arrive, and a restarted emulator carries on where it stopped.
 */

/** Where the last advance left a store: nothing changes before `nextDue` unless a row does. */
interface Settled {
  changes: number;
  nextDue: number;
}

const settled = new WeakMap<Store, Settled>();

/** Far more transitions than any state can owe; reaching it means a transition changes nothing. */
const MAX_TRANSITIONS_PER_ADVANCE = 1_000_000;

function earliest(state: LifecycleState): Transition | undefined {
  let first: Transition | undefined;
  const consider = (candidate: Transition | undefined): void => {
    if (candidate !== undefined && (first === undefined || comesBefore(candidate, first))) first = candidate;
  };
  for (const cluster of state.clusters) consider(nextClusterTransition(state, cluster));
  for (const job of state.jobs) consider(nextJobTransition(state, job));
  for (const validation of state.validations) consider(nextValidationTransition(state, validation));
  return first;
}

/** Applies every transition due by `now`, in time order; returns when the next one falls due. */
function runDueTransitions(state: LifecycleState, now: number): number {
  // A transition computed from an older timestamp than one already applied happens no earlier.
  let floor = -Infinity;
  for (let count = 0; count < MAX_TRANSITIONS_PER_ADVANCE; count++) {
    const next = earliest(state);
    if (next === undefined) return Infinity;
    if (next.at > now) return next.at;
    floor = Math.max(floor, next.at);
    next.apply(floor);
  }
  throw new Error("lifecycles did not settle: a transition left its record unchanged");
}

export function advanceLifecycles(store: Store): void {
  const now = store.clock.now();
  const last = settled.get(store);
  if (last !== undefined && last.changes === store.changes && now < last.nextDue) return;
  const nextDue = runDueTransitions(new LifecycleState(store), now);
  settled.set(store, { changes: store.changes, nextDue });
}
