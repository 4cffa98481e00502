import { defineTable, SERVICE_WIDE, type Row, type Store } from "../../store";

/**
 * Users (facts, "Users"): people, each of whom may belong to several accounts; the same API key
 * serves them in each. A user belongs to no one account, so their row is service-wide; what ties
 * them to an account is a membership (the members area).
 */

export interface UserRecord extends Row {
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

export const USERS = defineTable<UserRecord>("users");

/** A user about to be added: with its `id` when a fixture gives one, else the next user id. */
export type NewUser = Omit<UserRecord, "id" | "accountId"> & { id?: number };

export function addUser(store: Store, fields: NewUser): UserRecord {
  return store.insert(USERS, { ...fields, accountId: SERVICE_WIDE });
}

/** Applies changes to a user in place and returns it. */
export function updateUser(store: Store, user: UserRecord, changes: Partial<Omit<UserRecord, "id" | "accountId">>): UserRecord {
  return store.update(USERS, user, changes);
}

/** Every user, by id. */
export function allUsers(store: Store): UserRecord[] {
  return store.list(USERS);
}

export function userById(store: Store, id: number): UserRecord | undefined {
  return store.find(USERS, SERVICE_WIDE, id);
}

/** Addresses are compared without regard to case, as mail systems do. */
export function userByEmail(store: Store, email: string): UserRecord | undefined {
  const wanted = email.toLowerCase();
  return allUsers(store).find((user) => user.email.toLowerCase() === wanted);
}
