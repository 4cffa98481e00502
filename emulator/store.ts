import type { Clock } from "./clock";

/**
 * The emulator's state: one table per kind of record, each declared by the area that keeps it
 * (`Area.tables`). Rows are plain JSON (timestamps as ISO strings), so the whole state is one
 * snapshot that persistence writes and `/_emulator/state` shows; the store knows nothing about
 * URLs, response shapes or which areas there are. It carries what the areas it was made with
 * keep, hear and count (`StorePart`), so a change announced in one area reaches the others
 * through the store it happened in.
 */

/** Every row belongs to one account; ids come from one sequence per table, as in a database. */
export interface Row {
  id: number;
  accountId: number;
}

/** The account of rows every account shares (service-wide news, say): no account has id 0. */
export const SERVICE_WIDE = 0;

/** A row about to be inserted: with its `id` when a fixture gives one, else the table's next id. */
export type NewRow<T extends Row> = Omit<T, "id"> & { id?: number };

/** Where a new row goes, for functions that build one from a fixture or a request alike. */
export interface NewRowPlace {
  /** Given by a fixture; the table's next id otherwise. */
  id?: number;
  accountId: number;
}

/** A typed handle on a table; the name is the key in snapshots. */
export interface Table<T extends Row> {
  readonly name: string;
  /** Phantom field carrying the row type. */
  readonly _row?: T;
}

/** A table's handle; the area that keeps it lists it in `Area.tables`. */
export function defineTable<T extends Row>(name: string): Table<T> {
  return { name };
}

/** What an area counts of an account's records, for the account's JSON (`packages_count`, say). */
export type AccountCounter = (store: Store, accountId: number) => number;

/** Something one area announces and others may hear (`topics.ts`); the area it happens in defines it. */
export interface Topic<T> {
  readonly name: string;
  /** Phantom field carrying what is announced. */
  readonly _payload?: T;
}

/** One listener of one topic (`hear` in `topics.ts` makes it, keeping the payload's type). */
export interface Subscription {
  readonly topic: Topic<unknown>;
  readonly listener: (store: Store, payload: never) => void;
}

/** What a store keeps of each area it is made with: its tables, what it hears, what it counts. */
export interface StorePart {
  /** As the spec names the area, for messages and the README. */
  readonly name: string;
  /** The tables it keeps, so a snapshot lists them even while they are empty. */
  readonly tables?: readonly Table<Row>[];
  /** What it hears of the others' changes. */
  readonly listeners?: readonly Subscription[];
  /** The account's counters it gives, each counting its own rows. */
  readonly counters?: Readonly<Record<string, AccountCounter>>;
}

export interface Snapshot {
  format: 1;
  sequences: Record<string, number>;
  tables: Record<string, Row[]>;
}

export class Store {
  private readonly tables = new Map<string, Map<number, Row>>();
  private readonly sequences = new Map<string, number>();
  /** Bumped on every change, so persistence writes only when something changed. */
  private changeCount = 0;

  constructor(
    readonly clock: Clock,
    /** The service's areas (`areas/index.ts`), of which the store uses what they keep, hear and count. */
    readonly areas: readonly StorePart[],
  ) {}

  private rowsOf<T extends Row>(table: Table<T>): Map<number, T> {
    let rows = this.tables.get(table.name);
    if (rows === undefined) {
      rows = new Map();
      this.tables.set(table.name, rows);
    }
    return rows as Map<number, T>;
  }

  /** The account's rows (every account's when `accountId` is undefined), by id ascending. */
  list<T extends Row>(table: Table<T>, accountId?: number): T[] {
    const rows = [...this.rowsOf(table).values()];
    return (accountId === undefined ? rows : rows.filter((row) => row.accountId === accountId)).sort((a, b) => a.id - b.id);
  }

  /** A row of the account, or undefined: another account's row is never found. */
  find<T extends Row>(table: Table<T>, accountId: number, id: number): T | undefined {
    const row = this.rowsOf(table).get(id);
    return row?.accountId === accountId ? row : undefined;
  }

  /** Adds a row with the next id of the table, or with `id` when a fixture gives one. */
  insert<T extends Row>(table: Table<T>, fields: NewRow<T>): T {
    const id = fields.id ?? this.nextId(table);
    const row = { ...fields, id } as T;
    this.rowsOf(table).set(id, row);
    this.sequences.set(table.name, Math.max(this.sequences.get(table.name) ?? 1, id + 1));
    this.changed();
    return row;
  }

  /** Applies changes to a row in place and returns it. */
  update<T extends Row>(table: Table<T>, row: T, changes: Partial<Omit<T, "id" | "accountId">>): T {
    Object.assign(row, changes);
    this.rowsOf(table).set(row.id, row);
    this.changed();
    return row;
  }

  remove<T extends Row>(table: Table<T>, row: T): T {
    this.rowsOf(table).delete(row.id);
    this.changed();
    return row;
  }

  /** Every row of the account, in every table. */
  removeAccountRows(accountId: number): void {
    for (const rows of this.tables.values()) {
      for (const [id, row] of rows) if (row.accountId === accountId) rows.delete(id);
    }
    this.changed();
  }

  /** The id the table's next row gets unless it is given one: never one a deleted row had. */
  nextId<T extends Row>(table: Table<T>): number {
    return this.sequences.get(table.name) ?? 1;
  }

  // ---- change tracking and snapshots

  /** Call after mutating a row obtained from the store without `update`. */
  changed(): void {
    this.changeCount++;
  }

  get changes(): number {
    return this.changeCount;
  }

  private tableNames(): string[] {
    const declared = this.areas.flatMap((area) => (area.tables ?? []).map((table) => table.name));
    return [...new Set([...declared, ...this.tables.keys()])];
  }

  snapshot(): Snapshot {
    return {
      format: 1,
      sequences: Object.fromEntries(this.sequences),
      tables: Object.fromEntries(this.tableNames().map((name) => [name, [...(this.tables.get(name)?.values() ?? [])].sort((a, b) => a.id - b.id)])),
    };
  }

  static fromSnapshot(snapshot: Snapshot, clock: Clock, areas: readonly StorePart[]): Store {
    const store = new Store(clock, areas);
    for (const [name, next] of Object.entries(snapshot.sequences)) store.sequences.set(name, next);
    for (const [name, rows] of Object.entries(snapshot.tables)) {
      store.tables.set(name, new Map(rows.map((row) => [row.id, row])));
    }
    return store;
  }
}
