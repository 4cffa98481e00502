/**
 * One object of every kind, each built from its kind's reference example, and the account the
 * examples name (connections 301, 302 and 306, package 101, cluster 201), for tests that must
 * hold for every kind of the registry at the cost of one program.
 */
import * as pulumi from "@pulumi/pulumi";
import { RESOURCE_EXAMPLES, type ResourceKind } from "pulumi-etl/plugin";
import type { LocalServiceOptions } from "./service";
import { freshEd25519Key } from "./soak";

export const EXAMPLE_ACCOUNT: NonNullable<LocalServiceOptions["account"]> = {
  packages: [{ id: 101, name: "rollup", run: { seconds: 5, outcome: "completed", outputs: [{ name: "out", records: 1 }] } }],
  clusters: [{ id: 201, name: "ready", nodes: 4 }],
  connections: [
    { id: 301, name: "warehouse", type: "postgres", attributes: { host: "db.example.com", database: "analytics", username: "etl", password: "pw" } },
    { id: 302, name: "redshift", type: "redshift", attributes: { host: "rs.example.com", database: "analytics", username: "etl", password: "pw", region: "us-east-1" } },
    { id: 306, name: "crm", type: "salesforce", crmObjects: [{ name: "Contact" }] },
  ],
};

/** Where the service's state dump (`/_emulator/state`) keeps each kind's objects; members are the account's users. */
export const STATE_TABLE: Record<ResourceKind, string> = {
  PublicKey: "publicKeys",
  ConnectionGroup: "connectionGroups",
  Cluster: "clusters",
  JobRun: "jobs",
  Schedule: "schedules",
  Hook: "hooks",
  Member: "users",
  Connection: "connections",
  Package: "packages",
  Delivery: "deliveries",
};

/** One key for every run of a program, so an unchanged program stays unchanged. */
const EXAMPLE_KEY = freshEd25519Key("example@example.com");

/**
 * The kind's example as a program passes it: a secret of the configuration given its value, a
 * fresh key, and the follow-up calls of a create (a connection's settings test, a package's
 * validation) left out unless asked for.
 */
export function exampleInputs(kind: ResourceKind, followUps = false): Record<string, unknown> {
  const example: Record<string, unknown> = { ...RESOURCE_EXAMPLES[kind] };
  if (kind === "Connection") return { ...example, password: pulumi.secret("example-password"), ...(followUps ? {} : { testBeforeCreate: false }) };
  if (kind === "Package") return { ...example, ...(followUps ? {} : { validate: false }) };
  if (kind === "PublicKey") return { ...example, publicKey: EXAMPLE_KEY };
  return example;
}
