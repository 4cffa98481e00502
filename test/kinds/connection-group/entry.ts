/** ConnectionGroup in the tests: a named set of the account's connections. */
import { CONNECTIONS } from "../../support/soak-account";
import {
  badInput,
  type KindTests,
  NONE_MADE_BY_THE_SERVICE,
  LONG_NAME,
  presentByName,
  referenceExample,
  secretBadInput,
  soakName,
  tableOfTheAccount,
} from "../kind-tests";

const GROUP = { name: "g", connections: [{ id: 301, type: "postgres" }] };

const rows = tableOfTheAccount("connectionGroups");
const name = soakName("group");

export const connectionGroup: KindTests = {
  rows,
  made: { rows, id: (row) => String(row.id) },
  exampleInputs: () => referenceExample("ConnectionGroup"),
  replacingChange: "none",
  oldObject: "deleted",
  forcedReplacement: "new object",
  soak: {
    count: 3,
    name,
    args: (i) => ({ name: name(i), description: `soak group ${i}`, connections: CONNECTIONS.slice(0, i + 1).map(({ id, type }) => ({ id, type })) }),
    object: presentByName,
    leftover: (r) => `group ${r.id} (${r.name}) still exists`,
    serviceMade: NONE_MADE_BY_THE_SERVICE,
  },
  badInputs: [
    secretBadInput(
      "secret connection id not numeric",
      "connections.0.id",
      { ...GROUP, connections: [{ id: "conn-SECRET-q", type: "postgres" }] },
      "connections",
    ),
    badInput("missing name", "name", { connections: GROUP.connections }),
    badInput("empty name", "name", { ...GROUP, name: "" }),
    badInput("blank name", "name", { ...GROUP, name: "   " }),
    badInput("name over 255 characters", "name", { ...GROUP, name: LONG_NAME }),
    badInput("description of the wrong type", "description", { ...GROUP, description: 42 }),
    badInput("connections not a list", "connections", { ...GROUP, connections: "301" }),
    badInput("connection id not numeric", "connections.0.id", { ...GROUP, connections: [{ id: "warehouse", type: "postgres" }] }),
    badInput("connection without type", "connections.0.type", { ...GROUP, connections: [{ id: 301 }] }),
    badInput("duplicate connection", "connections.1.id", {
      ...GROUP,
      connections: [
        { id: 301, type: "postgres" },
        { id: "301", type: "postgres" },
      ],
    }),
    badInput("unknown field in a connection", "connections.0.name", { ...GROUP, connections: [{ id: 301, type: "postgres", name: "pg" }] }),
    badInput("connection of a type that cannot join a group", "connections.0.type", { ...GROUP, connections: [{ id: 301, type: "web_analytics" }] }),
    badInput("connection of an unknown type", "connections.0.type", { ...GROUP, connections: [{ id: 301, type: "postgress" }] }),
    badInput("importId with a fraction", "importId", { ...GROUP, importId: 1.5 }),
  ],
};
