/**
 * One object of every kind, each built from its kind's reference example, and the account the
 * examples name (connections 301, 302 and 306, package 101, clusters 201 and 202), for tests that must
 * hold for every kind of the registry at the cost of one program.
 */
import * as pulumi from "@pulumi/pulumi";
import { RESOURCE_EXAMPLES, type ResourceKind } from "pulumi-etl/plugin";
import { RESOURCES, type ResourceDeclaration } from "../../provider/resources/registry";
import type { LocalServiceOptions } from "./service";
import { freshEd25519Key } from "./keys";

export const EXAMPLE_ACCOUNT: NonNullable<LocalServiceOptions["account"]> = {
  packages: [{ id: 101, name: "rollup", run: { seconds: 5, outcome: "completed", outputs: [{ name: "out", records: 1 }] } }],
  // Made by another user, so the test's user watches it only when a watcher says so.
  clusters: [
    { id: 201, name: "ready", nodes: 4, ownerId: 9 },
    { id: 202, name: "standby", nodes: 1, ownerId: 9 },
  ],
  connections: [
    { id: 301, name: "warehouse", type: "postgres", attributes: { host: "db.example.com", database: "analytics", username: "etl", password: "pw" } },
    {
      id: 302,
      name: "redshift",
      type: "redshift",
      attributes: { host: "rs.example.com", database: "analytics", username: "etl", password: "pw", region: "us-east-1" },
    },
    { id: 306, name: "crm", type: "salesforce", crmObjects: [{ name: "Contact" }] },
  ],
};

/** The service holds the kind's one object and never makes it: a create takes it over with a PUT, no POST. */
export const isSingleton = (kind: ResourceKind): boolean => (RESOURCES[kind] as ResourceDeclaration).singleton === true;

/** A row of the service's state dump (`/_emulator/state`). */
export type StateRow = { id: number; [field: string]: unknown };

export type StateDump = { accounts: Array<Record<string, any>> };

/** A table of the account the test's key reaches (the dump's first). */
export const tableOfTheAccount =
  (table: string) =>
  (state: StateDump): StateRow[] =>
    state.accounts[0]![table];

/** The test's user's watches of clusters another user made (whose maker watches them from the start), by cluster. */
export function keyUsersWatches(state: StateDump): StateRow[] {
  const clusters = tableOfTheAccount("clusters")(state) as Array<StateRow & { ownerId?: number; watchers?: Array<{ userId: number }> }>;
  return clusters
    .filter((cluster) => cluster.ownerId !== TEST_USER_ID)
    .flatMap((cluster) => (cluster.watchers ?? []).filter((watcher) => watcher.userId === TEST_USER_ID).map((watcher) => ({ id: cluster.id, ...watcher })));
}

/** The user whose key the tests' stacks use. */
const TEST_USER_ID = 70;

/**
 * Where the service's state dump keeps each kind's objects: most in a table of the account the
 * test's key reaches (the first), members and the key's user among the account's users, and
 * accounts as the dump's list of accounts.
 */
export const STATE_ROWS: Record<ResourceKind, (state: StateDump) => StateRow[]> = {
  PublicKey: tableOfTheAccount("publicKeys"),
  ConnectionGroup: tableOfTheAccount("connectionGroups"),
  Cluster: tableOfTheAccount("clusters"),
  JobRun: tableOfTheAccount("jobs"),
  Schedule: tableOfTheAccount("schedules"),
  Hook: tableOfTheAccount("hooks"),
  Member: tableOfTheAccount("users"),
  Connection: tableOfTheAccount("connections"),
  Package: tableOfTheAccount("packages"),
  Delivery: tableOfTheAccount("deliveries"),
  Account: (state) => state.accounts as StateRow[],
  UserSettings: tableOfTheAccount("users"),
  ClusterWatcher: keyUsersWatches,
};

/** One key for every run of a program, so an unchanged program stays unchanged. */
const EXAMPLE_KEY = freshEd25519Key("example@example.com");

/** The kind's reference example as the registry declares it. */
export function creatableExample(kind: ResourceKind): Record<string, unknown> {
  return { ...RESOURCE_EXAMPLES[kind] };
}

/**
 * The kind's example as a program passes it: a secret of the configuration given its value, a
 * fresh key, and the follow-up calls of a create (a connection's settings test, a package's
 * validation) left out unless asked for.
 */
export function exampleInputs(kind: ResourceKind, followUps = false): Record<string, unknown> {
  const example = creatableExample(kind);
  if (kind === "Connection") return { ...example, password: pulumi.secret("example-password"), ...(followUps ? {} : { testBeforeCreate: false }) };
  if (kind === "Package") return { ...example, ...(followUps ? {} : { validate: false }) };
  if (kind === "PublicKey") return { ...example, publicKey: EXAMPLE_KEY };

  return example;
}
