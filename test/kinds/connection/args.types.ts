/**
 * Compile-time checks of what a program may pass to `Connection` (run by `npm run typecheck`):
 * naming the type gives that type's attributes, required ones required, others refused.
 */
import type { ConnectionArgs } from "../../../provider";

export const postgres: ConnectionArgs = { type: "postgres", name: "w", host: "db", username: "etl", password: "p", port: 5433, ssl: true };
export const snowflake: ConnectionArgs = {
  type: "snowflake",
  name: "w",
  accountName: "acme",
  username: "etl",
  password: "p",
  database: "d",
  warehouse: "wh",
  region: "snowflake::us-east-1",
};
export const bucket: ConnectionArgs = { type: "gs", name: "b", projectId: "p" };
export const crm: ConnectionArgs = { type: "salesforce", name: "crm", password: "token", environment: "sandbox" };

// @ts-expect-error host is required for postgres
export const missingHost: ConnectionArgs = { type: "postgres", name: "w", username: "etl", password: "p" };
// @ts-expect-error projectId is not an attribute of postgres connections
export const otherType: ConnectionArgs = { type: "postgres", name: "w", host: "db", username: "etl", password: "p", projectId: "x" };
// @ts-expect-error port is an integer
export const portText: ConnectionArgs = { type: "mysql", name: "w", host: "db", username: "etl", password: "p", port: "3306" };
// @ts-expect-error environment is production or sandbox
export const badEnvironment: ConnectionArgs = { type: "salesforce", name: "crm", password: "t", environment: "staging" };
