/** ConnectionGroup's check and diff: pure rules, no API call (the request function is never set up). */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { connectionGroupImplementation } from "../../../provider/resources/connection-group/implementation";
import type { ConnectionGroupInputs, ConnectionGroupOutputs } from "../../../provider/resources/connection-group/fields";
import { expectedFailure, namedInputs } from "../check-failure";

const UNKNOWN = pulumi.runtime.unknownValue;

const check = (news: Record<string, unknown>) => connectionGroupImplementation.check({}, { __provider: "shim", ...news });

/** Inputs as `check` leaves them, which is what `diff` receives. */
async function checked(news: Record<string, unknown>): Promise<ConnectionGroupInputs> {
  const result = await check(news);
  if (!result.ok) throw new Error(`check failed: ${JSON.stringify(result.failures)}`);
  return result.inputs as ConnectionGroupInputs;
}

describe("ConnectionGroup check", () => {
  it("takes ids as numbers or numeric strings and sorts the connections by id", async () => {
    const result = await check({
      name: "warehouses",
      description: "curated",
      connections: [
        { id: "302", type: "s3" },
        { id: 301, type: "postgres" },
      ],
      importId: 401,
    });
    expect(result).toEqual({
      ok: true,
      inputs: {
        name: "warehouses",
        description: "curated",
        connections: [
          { id: 301, type: "postgres" },
          { id: 302, type: "s3" },
        ],
        importId: "401",
      },
    });
  });

  it("leaves omitted inputs omitted", async () => {
    expect(await check({ name: "g" })).toEqual({ ok: true, inputs: { name: "g" } });
  });

  it.each<[Record<string, unknown>, string, string]>([
    [{}, "name", "name is required"],
    [{ name: "" }, "name", "name must have at least 1 character(s)"],
    [{ name: "   " }, "name", "name must not be blank"],
    [{ name: "x".repeat(256) }, "name", "name must have at most 255 characters"],
    [{ name: 7 }, "name", "name must be a string, got a number"],
    [{ name: "g", description: null }, "description", "description must be a string, got null"],
    [{ name: "g", connections: { id: 301, type: "postgres" } }, "connections", "connections must be an array, got an object"],
    [{ name: "g", connections: [{ type: "postgres" }] }, "connections.0.id", "connections.0.id is required"],
    [
      { name: "g", connections: [{ id: "abc", type: "postgres" }] },
      "connections.0.id",
      'connections.0.id must be a positive integer, as a number or a string such as "301", got a string of 3 characters',
    ],
    [{ name: "g", connections: [{ id: 0, type: "postgres" }] }, "connections.0.id", "connections.0.id must be a positive integer"],
    [{ name: "g", connections: [{ id: 1.5, type: "postgres" }] }, "connections.0.id", "connections.0.id must be a positive integer"],
    [{ name: "g", connections: [{ id: 301 }] }, "connections.0.type", "connections.0.type is required"],
    [{ name: "g", connections: [{ id: 301, type: "" }] }, "connections.0.type", "connections.0.type must have at least 1 character(s)"],
    [
      { name: "g", connections: [{ id: 301, type: "crm_platform" }] },
      "connections.0.type",
      "connections.0.type must be the type of a database or cloud-storage connection: postgres, mysql, sqlserver, oracle, herokupostgres, googlecloudsql, googlecloudpostgres, redshift, snowflake, bigquery, athena, mongo, s3, gs, azureblobstorage, sftp, hdfs",
    ],
    [
      { name: "g", connections: [{ id: 301, type: "postgres", name: "warehouse" }] },
      "connections.0.name",
      "connections.0.name is not a field of connections.0",
    ],
    [
      {
        name: "g",
        connections: [
          { id: 301, type: "postgres" },
          { id: 302, type: "s3" },
          { id: "301", type: "postgres" },
        ],
      },
      "connections.2.id",
      "connections.2.id must not repeat connection 301, already listed at connections.0",
    ],
    [{ name: "g", importId: "abc" }, "importId", 'importId must be the id of an existing object, a positive integer such as "42"'],
    [{ name: "g", importId: 0 }, "importId", "importId must be the id of an existing object"],
    [
      { name: "g", importId: true },
      "importId",
      'importId must be the id of an existing object, a positive integer such as "42" (a string or a number), got a boolean',
    ],
    [{ name: "g", connectionIds: [301] }, "connectionIds", "connectionIds is not an input of this resource"],
  ])("fails %j on %s", async (inputs, property, reason) => {
    const result = await check(inputs);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.failures).toContainEqual(expectedFailure(inputs, property, reason));
  });

  it("reports every problem at once", async () => {
    const result = await check({ name: "", connections: [{ id: "x", type: "s3" }], importId: "-1" });
    expect(!result.ok && namedInputs(result.failures)).toEqual(["name", "connections.0.id", "importId"]);
  });

  it.each<[string, Record<string, unknown>]>([
    ["every input", { name: UNKNOWN, description: UNKNOWN, connections: UNKNOWN, importId: UNKNOWN }],
    ["one connection", { name: "g", connections: [{ id: 301, type: "postgres" }, UNKNOWN] }],
    [
      "a connection's id",
      {
        name: "g",
        connections: [
          { id: UNKNOWN, type: "postgres" },
          { id: 301, type: "postgres" },
        ],
      },
    ],
  ])("leaves values unknown during a preview to the update: %s", async (_what, inputs) => {
    const result = await check(inputs);
    expect(result).toEqual({ ok: true, inputs });
  });
});

describe("ConnectionGroup diff", () => {
  const olds: ConnectionGroupOutputs = {
    name: "warehouses",
    description: null,
    accountId: 7,
    modifiedBy: { name: "Test User", email: "test@example.com" },
    connections: [
      { id: 301, name: "warehouse", type: "postgres" },
      { id: 302, name: "raw", type: "s3" },
    ],
    createdAt: "2026-11-21T00:00:00.000Z",
    updatedAt: "2026-11-21T00:00:00.000Z",
  };
  const diff = async (news: Record<string, unknown>, old: ConnectionGroupOutputs = olds) => connectionGroupImplementation.diff("5", old, await checked(news));
  const sameConnections = [
    { id: "302", type: "s3" },
    { id: 301, type: "postgres" },
  ];

  it("sees no change for the same set of connections in another order, given as strings", async () => {
    expect(await diff({ name: "warehouses", connections: sameConnections })).toMatchObject({ changes: false, replaces: [], deleteBeforeReplace: false });
  });

  it("compares an omitted description as none and omitted connections as none", async () => {
    const bare = { ...olds, connections: [] };
    expect(await diff({ name: "warehouses" }, bare)).toMatchObject({ changes: false });
    expect(await diff({ name: "warehouses", description: "d" }, bare)).toMatchObject({ changes: true, replaces: [] });
    expect(await diff({ name: "warehouses" }, { ...bare, description: "set elsewhere" })).toMatchObject({ changes: true, replaces: [] });
    expect(await diff({ name: "warehouses" })).toMatchObject({ changes: true, replaces: [] });
  });

  it.each<[string, Record<string, unknown>]>([
    ["a new name", { name: "lakes", connections: sameConnections }],
    ["a new description", { name: "warehouses", description: "curated", connections: sameConnections }],
    ["a connection detached", { name: "warehouses", connections: [{ id: 301, type: "postgres" }] }],
    [
      "a connection's type",
      {
        name: "warehouses",
        connections: [
          { id: 301, type: "mysql" },
          { id: 302, type: "s3" },
        ],
      },
    ],
  ])("updates in place on %s, never replacing", async (_what, news) => {
    expect(await diff(news)).toMatchObject({ changes: true, replaces: [], deleteBeforeReplace: false });
  });

  it("ignores importId, which only matters when the group is created", async () => {
    expect(await diff({ name: "warehouses", connections: sameConnections, importId: "99" })).toMatchObject({ changes: false });
    expect(await diff({ name: "warehouses", connections: sameConnections }, { ...olds, importId: "5" })).toMatchObject({ changes: false });
  });

  it("reports an update when a connection is not known yet", async () => {
    const news = {
      name: "warehouses",
      connections: [
        { id: UNKNOWN, type: "s3" },
        { id: 301, type: "postgres" },
      ],
    };
    expect(await diff(news)).toMatchObject({ changes: true, replaces: [], deleteBeforeReplace: false });
  });
});
