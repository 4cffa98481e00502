import type { AreaListeners } from "./areas/area";
import type { Clock } from "./clock";

/**
 * The emulator's state: accounts, users, and one table per kind of record (a user's place in an
 * account is a row of `memberships`, see `memberships.ts`). Rows are
 * plain JSON (timestamps as ISO strings), so the whole state is one snapshot that persistence
 * writes and `/_emulator/state` shows. Each area declares its table with `defineTable` in its
 * own model file; the store knows nothing about URLs or response shapes. It carries the areas'
 * listeners and counters, given when it is made, so a change announced in one area reaches the
 * others through the store it happened in.
 */

/** A person, who may belong to several accounts; the same API key serves them in each. */
export interface UserRecord {
  id: number;
  /** Empty for an invited user whose invitation named nobody. */
  name: string;
  email: string;
  /** None for an invited user who has not signed up yet: nothing authenticates as them. */
  apiKey?: string;
  confirmed: boolean;
  confirmedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** What the user set of their profile (`PUT {host}/user`); what is left out has its default. */
  settings?: UserSettings;
}

export interface UserSettings {
  location?: string | null;
  gravatarEmail?: string | null;
  /** An id of the time zone catalogue (`contract/catalogues.ts`). */
  timeZone?: string;
  receiveNewsletter?: boolean;
  notificationSettings?: { email: boolean; web: boolean };
}

export interface AccountRecord {
  id: number;
  uid: string;
  name: string;
  /** Region id, e.g. `amazon-web-services::us-east-1` (facts, "System information"). */
  region: string;
  /** Billing information on file; without it job runs are refused with 402. */
  billing: boolean;
  createdAt: string;
  updatedAt: string;
  /** Set through `PUT {host}/accounts/:id`; left out until then, null once cleared. */
  location?: string | null;
  /** Left out: the owner's email is shown. */
  billingEmail?: string | null;
  gravatarEmail?: string | null;
}

/** A user about to be added: with its `id` when a fixture gives one, else the next user id. */
export type NewUser = Omit<UserRecord, "id"> & { id?: number };

/** Users and accounts are numbered by sequences of their own, kept with the tables' sequences. */
const USER_SEQUENCE = "users";
const ACCOUNT_SEQUENCE = "accounts";

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

/** Every table any area defined, so snapshots list empty tables too. */
const DEFINED_TABLES = new Set<string>();

export function defineTable<T extends Row>(name: string): Table<T> {
  DEFINED_TABLES.add(name);
  return { name };
}

export interface Snapshot {
  format: 1;
  accounts: AccountRecord[];
  users: UserRecord[];
  sequences: Record<string, number>;
  tables: Record<string, Row[]>;
}

export class Store {
  private readonly accountsByUid = new Map<string, AccountRecord>();
  private readonly usersById = new Map<number, UserRecord>();
  private readonly tables = new Map<string, Map<number, Row>>();
  private readonly sequences = new Map<string, number>();
  /** Bumped on every change, so persistence writes only when something changed. */
  private changeCount = 0;

  constructor(
    readonly clock: Clock,
    /** The service's areas (`areas/index.ts`), of which the store uses what they hear and count. */
    readonly areas: readonly AreaListeners[],
  ) {}

  // ---- accounts and users

  addAccount(account: AccountRecord): void {
    this.accountsByUid.set(account.uid, account);
    this.changed();
  }

  /** An account made through the API: the next id, never one a deleted account had. */
  createAccount(fields: Omit<AccountRecord, "id">): AccountRecord {
    // States saved before accounts had a sequence have only fixture accounts: go past them.
    const highest = Math.max(0, ...this.accounts().map((account) => account.id));
    const id = Math.max(this.sequences.get(ACCOUNT_SEQUENCE) ?? 1, highest + 1);
    const account = { ...fields, id };
    this.sequences.set(ACCOUNT_SEQUENCE, id + 1);
    this.addAccount(account);
    return account;
  }

  /** Applies changes in place; a new `uid` moves the account to it, keeping the accounts' order. */
  updateAccount(account: AccountRecord, changes: Partial<Omit<AccountRecord, "id">>): AccountRecord {
    const all = this.accounts();
    Object.assign(account, changes);
    this.accountsByUid.clear();
    for (const each of all) this.accountsByUid.set(each.uid, each);
    this.changed();
    return account;
  }

  /** The account and every row of it, in every table; its users stay, as people outlive accounts. */
  removeAccount(account: AccountRecord): void {
    this.accountsByUid.delete(account.uid);
    for (const rows of this.tables.values()) {
      for (const [id, row] of rows) if (row.accountId === account.id) rows.delete(id);
    }
    this.changed();
  }

  accounts(): AccountRecord[] {
    return [...this.accountsByUid.values()];
  }

  accountByUid(uid: string): AccountRecord | undefined {
    return this.accountsByUid.get(uid);
  }

  accountById(id: number): AccountRecord | undefined {
    return this.accounts().find((account) => account.id === id);
  }

  addUser(fields: NewUser): UserRecord {
    const id = fields.id ?? this.sequences.get(USER_SEQUENCE) ?? 1;
    const user = { ...fields, id };
    this.usersById.set(id, user);
    this.sequences.set(USER_SEQUENCE, Math.max(this.sequences.get(USER_SEQUENCE) ?? 1, id + 1));
    this.changed();
    return user;
  }

  /** Applies changes to a user in place and returns it. */
  updateUser(user: UserRecord, changes: Partial<Omit<UserRecord, "id">>): UserRecord {
    Object.assign(user, changes);
    this.changed();
    return user;
  }

  /** Every user, by id. */
  users(): UserRecord[] {
    return [...this.usersById.values()].sort((a, b) => a.id - b.id);
  }

  userById(id: number): UserRecord | undefined {
    return this.usersById.get(id);
  }

  /** Addresses are compared without regard to case, as mail systems do. */
  userByEmail(email: string): UserRecord | undefined {
    const wanted = email.toLowerCase();
    return this.users().find((user) => user.email.toLowerCase() === wanted);
  }

  // ---- tables

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

  private nextId<T extends Row>(table: Table<T>): number {
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

  snapshot(): Snapshot {
    return {
      format: 1,
      accounts: this.accounts(),
      users: this.users(),
      sequences: Object.fromEntries(this.sequences),
      tables: Object.fromEntries(
        [...new Set([...DEFINED_TABLES, ...this.tables.keys()])].map((name) => [
          name,
          [...(this.tables.get(name)?.values() ?? [])].sort((a, b) => a.id - b.id),
        ]),
      ),
    };
  }

  static fromSnapshot(snapshot: Snapshot, clock: Clock, areas: readonly AreaListeners[]): Store {
    const store = new Store(clock, areas);
    for (const account of snapshot.accounts) store.accountsByUid.set(account.uid, account);
    for (const user of snapshot.users) store.usersById.set(user.id, user);
    for (const [name, next] of Object.entries(snapshot.sequences)) store.sequences.set(name, next);
    for (const [name, rows] of Object.entries(snapshot.tables)) {
      store.tables.set(name, new Map(rows.map((row) => [row.id, row])));
    }
    return store;
  }
}
