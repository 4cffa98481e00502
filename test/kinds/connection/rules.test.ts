/** Connection's check and bodies: each type's attributes, its defaults, and secrets kept out of every failure. */
import { describe, expect, it } from "vitest";
import { tableOperations, type ConnectionInputs, type ConnectionOutputs } from "../../../provider/resources/connection/fields";
import { connectionImplementation } from "../../../provider/resources/connection/implementation";
import { expectedFailure } from "../check-failure";

const check = (news: Record<string, unknown>) => connectionImplementation.check({}, news);
const POSTGRES = { type: "postgres", name: "warehouse", host: "db.example.com", username: "etl", password: "s3cret-pw" };

function parsed(inputs: Record<string, unknown>): ConnectionInputs {
  return tableOperations.inputSchema.parse(inputs) as ConnectionInputs;
}

describe("Connection check", () => {
  it.each<[Record<string, unknown>, string, string]>([
    [{ ...POSTGRES, type: "oracle-rdb" }, "type", "type must be one of"],
    [{ ...POSTGRES, host: undefined }, "host", "host is required for postgres connections"],
    [
      { ...POSTGRES, projectId: "p" },
      "projectId",
      "projectId is not an attribute of postgres connections (they take: username, password, host, port, database, tunnelType, ssl)",
    ],
    [{ ...POSTGRES, port: 70_000 }, "port", "port must be at most 65535"],
    [{ ...POSTGRES, port: "5432" }, "port", "port must be a number"],
    [{ ...POSTGRES, port: 5432.5 }, "port", "port must be an integer"],
    [{ ...POSTGRES, host: "   " }, "host", "host must not be blank"],
    [{ ...POSTGRES, host: "db example.com" }, "host", "host must not contain spaces: it says where the connection reaches"],
    [{ ...POSTGRES, password: "" }, "password", "password must not be blank"],
    [{ ...POSTGRES, tunnelType: "vpn" }, "tunnelType", "tunnelType must be one of direct, reverse"],
    [{ ...POSTGRES, name: " " }, "name", "name must"],
    [
      { type: "snowflake", name: "w", username: "u", password: "p", database: "d", warehouse: "w", region: "snowflake::us-east-1" },
      "accountName",
      "accountName is required for snowflake connections",
    ],
    [{ type: "salesforce", name: "crm", password: "t" }, "environment", "environment is required for salesforce connections"],
    [{ type: "salesforce", name: "crm", environment: "production" }, "password", "password is required for salesforce connections unless code is given"],
    [
      { type: "salesforce", name: "crm", environment: "production", code: "c" },
      "redirectUri",
      "redirectUri is required for salesforce connections when code is given",
    ],
    [{ type: "sftp", name: "f", host: "h", username: "u", authMethod: "certificate" }, "authMethod", "authMethod must be one of password, key"],
  ])("fails %j on %s", async (inputs, property, reason) => {
    const result = await check(inputs);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.failures).toContainEqual(expectedFailure(inputs, property, reason));
  });

  it("never repeats a password in a failure", async () => {
    const result = await check({ ...POSTGRES, password: 42, port: -1 });
    expect(result.ok).toBe(false);
    expect(JSON.stringify(!result.ok && result.failures)).not.toContain("s3cret");
    const wrongType = await check({ ...POSTGRES, type: "gs", projectId: "p" });
    expect(JSON.stringify(!wrongType.ok && wrongType.failures)).not.toContain("s3cret-pw");
  });
});

/** The service's record of the POSTGRES connection, as made with the type's defaults. */
const POSTGRES_RECORD = {
  id: 7,
  name: "warehouse",
  type: "postgres",
  host: "db.example.com",
  username: "etl",
  port: 5432,
  ssl: true,
  database: "",
  tunnel_type: "direct",
  created_at: "t",
  updated_at: "t",
};

describe("Connection bodies", () => {
  it("sends the type's attributes under their API names, without the provider's own inputs", () => {
    const body = tableOperations.createBody(parsed({ ...POSTGRES, tunnelType: "reverse", testBeforeCreate: false }));
    expect(body).toEqual({ name: "warehouse", host: "db.example.com", username: "etl", password: "s3cret-pw", tunnel_type: "reverse" });
  });

  it("compares an omitted attribute with the type's default, and sends only what differs", () => {
    const outputs = tableOperations.outputs(POSTGRES_RECORD, parsed(POSTGRES)) as ConnectionOutputs;
    expect(outputs).toMatchObject({ port: 5432, ssl: true, password: "s3cret-pw", testBeforeCreate: true });
    expect(tableOperations.updateBody(outputs, parsed(POSTGRES))).toEqual({});
    expect(tableOperations.updateBody(outputs, parsed({ ...POSTGRES, password: "rotated" }))).toEqual({ password: "rotated" });
    expect(tableOperations.updateBody(outputs, parsed({ ...POSTGRES, port: 5433 }))).toEqual({ port: 5433 });
  });

  it("replaces the connection for a new type and updates it in place otherwise", async () => {
    const outputs = tableOperations.outputs(POSTGRES_RECORD, parsed(POSTGRES)) as ConnectionOutputs;
    const mysql = await connectionImplementation.diff("7", outputs, parsed({ ...POSTGRES, type: "mysql" }));
    expect(mysql.replaces).toContain("type");
    const rotated = await connectionImplementation.diff("7", outputs, parsed({ ...POSTGRES, password: "rotated" }));
    expect(rotated).toMatchObject({ changes: true, replaces: [] });
  });
});
