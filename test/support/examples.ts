/**
 * One object of every kind, each built from its kind's reference example, and the account the
 * examples name (connections 301, 302 and 306, package 101, clusters 201 and 202), for tests that must
 * hold for every kind of the registry at the cost of one program.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "pulumi-etl/plugin";
import { RESOURCES, type ResourceDeclaration } from "../../provider/resources/registry";
import type { TestEmulatorOptions } from "./service";
import { KIND_TESTS } from "../kinds";

export const EXAMPLE_ACCOUNT: NonNullable<TestEmulatorOptions["account"]> = {
  packages: [{ id: 101, name: "rollup", run: { seconds: 5, outcome: "completed", outputs: [{ name: "out", records: 1 }] } }],
  // Made by another user, so the test's user watches them only when a ClusterWatcher says so.
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

/** The kind's example as a program passes it (its entry's `exampleInputs`), a secret of the configuration made secret. */
export function exampleInputs(kind: ResourceKind): Record<string, unknown> {
  return KIND_TESTS[kind].exampleInputs({ secret: pulumi.secret });
}
