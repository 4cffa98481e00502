import type { Row, Store, Table } from "../store";

/**
 * What one advance of the lifecycles reads, read once: each table's rows and the indexes areas
 * build on them. Transitions change rows in place, so what was read stays complete for the
 * whole advance, unless a transition adds rows (a schedule's run adds jobs and clusters): it
 * then calls `rowsAdded`, and what is read next is read afresh.
 */
export class LifecycleState {
  private readonly cache = new Map<object | symbol, unknown>();

  constructor(readonly store: Store) {}

  /** Every account's rows of the table, by id ascending. */
  rows<T extends Row>(table: Table<T>): readonly T[] {
    return this.once(table, () => this.store.list(table));
  }

  /** Builds something from the rows at most once per advance; `key` tells one index from another. */
  once<T>(key: object | symbol, build: () => T): T {
    if (!this.cache.has(key)) this.cache.set(key, build());
    return this.cache.get(key) as T;
  }

  /** Forgets every table and index read so far, after a transition that inserted rows. */
  rowsAdded(): void {
    this.cache.clear();
  }

  /** Wall-clock milliseconds of a simulated duration. */
  duration(seconds: number): number {
    return this.store.clock.duration(seconds);
  }
}

/** The next thing time does to one record: at `at` (wall-clock ms) `apply` moves it on. */
export interface Due {
  at: number;
  id: number;
  apply(at: number): void;
}

/** How an area's records move on by themselves. */
export interface AreaLifecycle {
  /**
   * Orders transitions of different areas due at the same instant, lowest first: clusters come
   * before jobs, so a job sees its cluster's new state.
   */
  rank: number;
  /** The earliest transition due to any of the area's records, if any has one. */
  earliest(state: LifecycleState): Due | undefined;
}

/** The earliest of the rows' next transitions; of two due at once, the lower id's. */
export function earliestOf<T>(rows: readonly T[], next: (row: T) => Due | undefined): Due | undefined {
  let first: Due | undefined;
  for (const row of rows) {
    const due = next(row);
    if (due !== undefined && (first === undefined || due.at < first.at || (due.at === first.at && due.id < first.id))) first = due;
  }
  return first;
}
