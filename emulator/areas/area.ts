import type { z } from "zod";
import type { AccountCounter } from "../account-counters";
import type { FixtureAccount } from "../fixtures/account";
import type { AreaLifecycle } from "../lifecycle/state";
import type { Route } from "../routing";
import type { StatusListener } from "../status-events";
import type { Store } from "../store";
import type { ConnectionDeletedListener } from "./connections/interface";

/**
 * What an area hears of the others and counts of an account. A store is made with the list of
 * areas and carries these parts of them (`Store.areas`), so whoever announces a change tells
 * every area that listens without knowing which they are.
 */
export interface AreaListeners {
  /** As the spec names the area, for messages and the README. */
  readonly name: string;
  /** The account's counters the area gives (`packages_count`, say), each counting its own rows. */
  readonly counters?: Readonly<Record<string, AccountCounter>>;
  /** Told of each status change of a job or cluster (`status-events.ts`). */
  readonly onStatusChange?: StatusListener;
  /** Told of each deleted connection, after its row is gone. */
  readonly onConnectionDeleted?: ConnectionDeletedListener;
}

/**
 * One area of the service's interface (spec section 1), whole: the paths it serves, its part of
 * the fixtures and how that part becomes rows, how its records move on by themselves when they
 * do, and what it hears and counts. The list in `index.ts` is all the rest of the emulator knows
 * of areas; an area uses another only through that area's `interface.ts`.
 */
export interface Area extends AreaListeners {
  /** Its paths below `{base_url}`; within the area, fixed segments precede `{id}` patterns. */
  readonly routes: readonly Route[];
  /**
   * Its paths at the host root, outside `{base_url}` (facts, section 0: `/hook_events`, say),
   * matched against the whole path; they serve the account of the caller's API key.
   */
  readonly rootRoutes?: readonly Route[];
  /** Its records in each account of the fixtures, when it has any. */
  readonly accountFixtures?: AccountFixtures;
  /** Its records beside `accounts` in the fixtures, the same for every account. */
  readonly serviceFixtures?: ServiceFixtures;
  /** How its records change with time alone, when they do. */
  readonly lifecycle?: AreaLifecycle;
}

/** One account of the fixtures, with what an area's rule needs to place a problem in the file. */
export interface AccountItems<T> {
  account: FixtureAccount;
  /** The account's index in `accounts`, for the JSON path of a problem. */
  index: number;
  items: T;
}

export interface AccountFixtures<Field extends string = string, S extends z.ZodType = z.ZodType> {
  /** The field of each account that holds the area's records, e.g. `clusters`. */
  readonly field: Field;
  /** What that field holds, with the defaults of whatever may be left out. */
  readonly schema: S;
  /**
   * Rules a field's schema cannot state, across accounts or against the account's users, reported
   * like zod's own problems so a file's mistakes are listed together.
   */
  check?(accounts: readonly AccountItems<z.output<S>>[], ctx: z.RefinementCtx): void;
  /** Turns one account's items into rows; the areas before this one in the list are seeded already. */
  seed(store: Store, account: FixtureAccount, items: z.output<S>): void;
}

export interface ServiceFixtures<Field extends string = string, S extends z.ZodType = z.ZodType> {
  /** The field beside `accounts`, e.g. `productUpdates`. */
  readonly field: Field;
  readonly schema: S;
  /** Turns the items into rows of no account (`SERVICE_WIDE`), once every account is seeded. */
  seed(store: Store, items: z.output<S>): void;
}

/** Keeps the literal field and the exact schema, so the fixtures' type names each area's fields. */
export function accountFixtures<Field extends string, S extends z.ZodType>(part: AccountFixtures<Field, S>): AccountFixtures<Field, S> {
  return part;
}

export function serviceFixtures<Field extends string, S extends z.ZodType>(part: ServiceFixtures<Field, S>): ServiceFixtures<Field, S> {
  return part;
}
