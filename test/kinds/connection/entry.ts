/** Connection in the tests: the account's access to a database, a store or another service, with its secrets. */
import { CONNECTION_PASSWORD } from "../../support/soak-account";
import {
  badInput,
  type KindTests,
  NONE_MADE_BY_THE_SERVICE,
  presentByName,
  referenceExample,
  secretBadInput,
  soakName,
  tableOfTheAccount,
} from "../kind-tests";

const WAREHOUSE = { type: "postgres", name: "warehouse", host: "db.example.com", username: "etl", password: "pw-SECRET-9" };

const rows = tableOfTheAccount("connections");
const name = soakName("connection");

export const connection: KindTests = {
  rows,
  made: { rows, id: (row) => String(row.id) },
  exampleInputs: ({ secret }) => ({ ...referenceExample("Connection"), password: secret("example-password"), testBeforeCreate: false }),
  replacingChange: { type: "mysql" },
  oldObject: "deleted",
  forcedReplacement: "new object",
  soak: {
    count: 2,
    name,
    args: (i) => ({ type: "postgres", name: name(i), host: `db-${i}.example.com`, username: "soak", password: CONNECTION_PASSWORD }),
    object: presentByName,
    leftover: (r) => `connection ${r.id} (${r.name}) still exists`,
    serviceMade: NONE_MADE_BY_THE_SERVICE,
  },
  badInputs: [
    secretBadInput("secret password with a NUL character", "password", { ...WAREHOUSE, password: "pw-SECRET-\u0000" }, "password"),
    badInput("unknown type", "type", { ...WAREHOUSE, type: "postgresql" }, "pw-SECRET-9"),
    badInput("missing required attribute", "host", { ...WAREHOUSE, host: undefined }, "pw-SECRET-9"),
    badInput("attribute of another type", "warehouse", { ...WAREHOUSE, warehouse: "LOAD_WH" }, "pw-SECRET-9"),
    badInput("port out of range", "port", { ...WAREHOUSE, port: 70_000 }, "pw-SECRET-9"),
    badInput("port as text", "port", { ...WAREHOUSE, port: "5432" }, "pw-SECRET-9"),
    badInput("unknown tunnel type", "tunnelType", { ...WAREHOUSE, tunnelType: "vpn" }, "pw-SECRET-9"),
    badInput("snowflake without its account", "accountName", {
      type: "snowflake",
      name: "w",
      username: "u",
      password: "p",
      database: "d",
      warehouse: "w",
      region: "snowflake::us-east-1",
    }),
    badInput("OAuth code without its redirect", "redirectUri", { type: "salesforce", name: "crm", environment: "production", code: "c" }),
    badInput("blank name", "name", { ...WAREHOUSE, name: " " }, "pw-SECRET-9"),
    badInput("host of spaces only", "host", { ...WAREHOUSE, host: "   " }, "pw-SECRET-9"),
    badInput("host with a space inside", "host", { ...WAREHOUSE, host: "db example.com" }, "pw-SECRET-9"),
    badInput("empty required password", "password", { ...WAREHOUSE, password: "" }),
    badInput("port with a fraction", "port", { ...WAREHOUSE, port: 5432.5 }, "pw-SECRET-9"),
  ],
};
