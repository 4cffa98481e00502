/**
 * What the tests need to know about a resource kind, in one place per kind: each folder under
 * test/kinds/ exports a `KindTests` from its `entry.ts`, and test/kinds/index.ts lists them by
 * kind. Every field is required, so a kind of the registry without its entry, or an entry that
 * leaves out a fact, fails to compile.
 */
import { RESOURCE_EXAMPLES, type ResourceKind } from "pulumi-etl/plugin";

/** A row of the service's state dump (`/_emulator/state`). */
export type StateRow = { id: number; [field: string]: any };

export type StateDump = { accounts: Array<Record<string, any>> };

/** A table of the account the test's key reaches (the dump's first); none yet is an empty one. */
export const tableOfTheAccount =
  (table: string) =>
  (state: StateDump): StateRow[] =>
    state.accounts[0]![table] ?? [];

/** The kind's reference example as the registry declares it. */
export function referenceExample(kind: ResourceKind): Record<string, unknown> {
  return { ...RESOURCE_EXAMPLES[kind] };
}

export interface ExampleOptions {
  /** How a secret the example takes from the stack's configuration is given (`pulumi.secret`, or as it is). */
  secret: (value: string) => unknown;
}

/**
 * What becomes of the object a replacement leaves: deleted, ended but still listed (its status),
 * a finished run only forgotten, or, for a kind the service holds one of, the same object taken
 * over again.
 */
export type Fate = "deleted" | "kept" | { status: string } | "taken over again";

/** An invalid input of the kind, which its check refuses naming the input and the rule. */
export interface BadInput {
  what: string;
  inputs: Record<string, unknown>;
  /** The input the failure must name, as the output prints it (nested: "connections.1.id"). */
  field: string;
  /** Text that must not appear in the output (a pasted secret). */
  hidden?: string;
  /** An input the program marks secret (`pulumi.secret`). */
  secret?: string;
}

export const badInput = (what: string, field: string, inputs: Record<string, unknown>, hidden?: string): BadInput => ({ what, inputs, field, hidden });

/** A bad input whose offending input the program marked secret: its value must appear nowhere. */
export const secretBadInput = (what: string, field: string, inputs: Record<string, unknown>, secret: string): BadInput => ({
  ...badInput(what, field, inputs, "SECRET"),
  secret,
});

/** What the soak's program needs beyond the index: fresh SSH keys, and the cycle under way (for the jobs). */
export interface StackInputs {
  keys: readonly string[];
  cycle(): number;
}

/** A soak object on the service as the ledger sees it. */
export interface ServiceObject {
  id: string;
  /** The soak resource it belongs to (its name; a member's email); undefined for objects of others. */
  owner: string | undefined;
  /** Whether it still exists as far as the stack is concerned. */
  live: boolean;
  status?: string;
  /** A finished run: out of state it is what destroy leaves by design (the API cannot delete it), not an orphan. */
  forgotten?: boolean;
  /** A run's record stays after the run: a resource in state is lost only when its record is missing, whatever its cycle. */
  lostOnlyWhenMissing?: boolean;
}

/** The kind in the soak: its resources in the stack, and how the ledger reads its records (`rows`). */
export interface KindInSoak {
  count: number;
  /** The resource name of the i-th resource of the kind. */
  name(i: number): string;
  args(i: number, inputs: StackInputs): Record<string, unknown>;
  object(record: StateRow, cycle: number): ServiceObject;
  /** What a successful destroy may not leave of a record, or undefined when it may stay. */
  leftover(record: StateRow): string | undefined;
  /**
   * The objects the service set up on its own that a record shows, never the stack's: a
   * delivery's pipeline package and cluster, and a job a delivery or a schedule started.
   */
  serviceMade(record: StateRow): Array<{ kind: ResourceKind; id: unknown }>;
}

export const NONE_MADE_BY_THE_SERVICE = (): Array<{ kind: ResourceKind; id: unknown }> => [];

export interface KindTests {
  /** Where the service's state dump keeps the kind's objects (members and the key's user among the account's users). */
  rows(state: StateDump): StateRow[];
  /**
   * The records a create makes with its POST and the id of the resource each is the object of
   * (a member's is its membership, under the person's user id), for `etl-recover`'s tests.
   */
  made: { rows(state: StateDump): StateRow[]; id(row: StateRow): string };
  /**
   * The kind's reference example as a program passes it, with the follow-up calls of a create (a
   * connection's settings test, a package's validation) left out: a create is one request.
   */
  exampleInputs(options: ExampleOptions): Record<string, unknown>;
  /** A change of the example's inputs that forces replacement, or "none" when no input does. */
  replacingChange: Record<string, unknown> | "none";
  /** What becomes of the object a replacement leaves. */
  oldObject: Fate;
  /**
   * What `up --replace` does: a new object as for a changed input, or, for a kind whose id is not
   * the object's own (a member's is the person's), the calls that end and remake it under the same id.
   */
  forcedReplacement: "new object" | { sameId(id: string): string[] };
  soak: KindInSoak;
  /** Invalid inputs; the first is also previewed through the real engine on each surface. */
  badInputs: readonly [BadInput, ...BadInput[]];
}

/** The soak resource name of the i-th resource of a kind. */
export const soakName = (prefix: string) => (i: number) => `soak-${prefix}-${i}`;

/** The ledger's reading of a record that carries its resource's name and is live while present. */
export const presentByName = (record: StateRow): ServiceObject => ({ id: String(record.id), owner: record.name, live: true });

export const LONG_NAME = "x".repeat(256);
