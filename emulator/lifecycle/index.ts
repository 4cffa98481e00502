import { AREAS } from "../areas";
import type { Store } from "../store";
import { LifecycleState, type Due } from "./state";

/**
 * Brings every lifecycle up to the clock before a request is served. It is a discrete-event
 * simulation: the earliest due transition of any record is applied at its own time, then the
 * next, until none is due. What a client sees therefore depends only on the stored timestamps,
 * not on when requests arrive, and a restarted emulator carries on where it stopped. Which
 * records move, and how, is each area's own (`Area.lifecycle`).
 */

/** Where the last advance left a store: nothing changes before `nextDue` unless a row does. */
interface Settled {
  changes: number;
  nextDue: number;
  /** The clock's speed then: a new speed moves every due time. */
  speedChangedAt: number | undefined;
}

const settled = new WeakMap<Store, Settled>();

/** Far more transitions than any state can owe; reaching it means a transition changes nothing. */
const MAX_TRANSITIONS_PER_ADVANCE = 1_000_000;

interface Ranked extends Due {
  rank: number;
}

function comesBefore(a: Ranked, b: Ranked): boolean {
  if (a.at !== b.at) return a.at < b.at;
  if (a.rank !== b.rank) return a.rank < b.rank;
  return a.id < b.id;
}

function earliest(state: LifecycleState): Ranked | undefined {
  let first: Ranked | undefined;
  for (const { lifecycle } of AREAS) {
    const due = lifecycle?.earliest(state);
    if (lifecycle === undefined || due === undefined) continue;
    const candidate = { ...due, rank: lifecycle.rank };
    if (first === undefined || comesBefore(candidate, first)) first = candidate;
  }
  return first;
}

/** Applies every transition due by `now`, in time order; returns when the next one falls due. */
function runDueTransitions(state: LifecycleState, now: number): number {
  // A transition computed from an older timestamp than one already applied happens no earlier,
  // and one a change of speed brought forward happens no earlier than the change.
  let floor = state.store.clock.speedChangedAt ?? -Infinity;
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
  const { speedChangedAt } = store.clock;
  if (last !== undefined && last.changes === store.changes && last.speedChangedAt === speedChangedAt && now < last.nextDue) return;
  const nextDue = runDueTransitions(new LifecycleState(store), now);
  settled.set(store, { changes: store.changes, nextDue, speedChangedAt });
}
