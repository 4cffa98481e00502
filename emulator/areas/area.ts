import type { z } from "zod";
import type { FixtureAccount } from "../fixtures/account";
import type { AreaLifecycle } from "../lifecycle/state";
import type { Route } from "../routing";
import type { Store, StorePart } from "../store";

/**
 * One area of the service's interface (spec section 1), whole: the tables it keeps, the paths it
 * serves, its part of the fixtures and how that part becomes rows, how its records move on by
 * themselves when they do, and what it hears (`topics.ts`) and counts. A store is made with the
 * list of areas and carries the parts it needs of them (`StorePart`), so whoever announces a
 * change tells every area that listens without knowing which they are. The list in `index.ts` is
 * all the rest of the emulator knows of areas; an area uses another only through that area's
 * `interface.ts`.
 */
export interface Area extends StorePart {
  /** Its paths below `{base_url}`; within the area, fixed segments precede `{id}` patterns. */
  readonly routes: readonly Route[];
  /**
   * Its paths at the host root, outside `{base_url}` (facts, section 0: `/hook_events`, say),
   * matched against the whole path; they serve the account of the caller's API key.
   */
  readonly rootRoutes?: readonly Route[];
  /** Its records made from each account's own fields (`id`, `uid`, `users`), when it has any. */
  readonly accountRecord?: AccountRecordFixtures;
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

/**
 * An area's part of the fixtures that is each account's own fields rather than a field of its
 * own: the account itself, its users, their roles. These parts are checked and seeded before any
 * field's, in the order of the list of areas, since every other record rests on them.
 */
export interface AccountRecordFixtures {
  /** Rules across the accounts' own fields, reported like zod's own problems. */
  check?(accounts: readonly FixtureAccount[], ctx: z.RefinementCtx): void;
  /** Turns the account's own fields into the area's rows. */
  seed(store: Store, account: FixtureAccount): void;
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
