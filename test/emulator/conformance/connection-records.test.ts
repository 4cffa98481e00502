import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { CONNECTION_TYPE_NAMES } from "../../../contract/connection-types";
import { ACCOUNT, call, control, expectError, readJson, startTestEmulator, testFixtures } from "../helpers";

/** Creating connections of each type: what is required, the defaults, and secrets never shown. */

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const SECRET = "s3cret-text-never-shown";
const TUNNEL = { tunnel_type: "direct" };

interface Case {
  type: string;
  body: Record<string, unknown>;
  /** Every non-secret attribute the record shows, defaults included. */
  shown: Record<string, unknown>;
}

const sqlServer = (port: number, ssl: boolean) => ({
  body: { username: "etl", password: SECRET, host: "db.example.com" },
  shown: { username: "etl", host: "db.example.com", port, database: "", ssl, ...TUNNEL },
});

const CASES: Case[] = [
  { type: "postgres", ...sqlServer(5432, true) },
  { type: "mysql", ...sqlServer(3306, false) },
  { type: "sqlserver", ...sqlServer(1433, false) },
  {
    type: "redshift",
    body: { ...sqlServer(5439, false).body, region: "us-east-1" },
    shown: { ...sqlServer(5439, false).shown, region: "us-east-1" },
  },
  {
    type: "snowflake",
    body: { account_name: "acme", username: "etl", password: SECRET, database: "ANALYTICS", warehouse: "WH", region: "snowflake::us-east-1" },
    shown: { account_name: "acme", username: "etl", database: "ANALYTICS", warehouse: "WH", region: "snowflake::us-east-1", ...TUNNEL },
  },
  { type: "bigquery", body: { host: "acme-project", region: "US" }, shown: { host: "acme-project", region: "US", database: "" } },
  {
    type: "mongo",
    body: { host: "mongo.example.com", database: "events" },
    shown: {
      host: "mongo.example.com",
      database: "events",
      username: null,
      port: 27017,
      ssl: false,
      read_preference: "primary",
      authentication_database: "",
      ...TUNNEL,
    },
  },
  { type: "s3", body: { username: "AKIAEXAMPLE", password: SECRET }, shown: { username: "AKIAEXAMPLE", region: "us-east-1" } },
  { type: "gs", body: { project_id: "acme-project" }, shown: { project_id: "acme-project" } },
  { type: "azureblobstorage", body: { username: "acmestorage", password: SECRET }, shown: { username: "acmestorage" } },
  {
    type: "sftp",
    body: { username: "drop", host: "sftp.example.com", password: SECRET },
    shown: { username: "drop", host: "sftp.example.com", port: 22, auth_method: "password" },
  },
  {
    type: "salesforce",
    body: { password: SECRET, refresh_token: SECRET, environment: "sandbox" },
    shown: { username: null, uid: null, expires_at: null, redirect_uri: null, environment: "sandbox" },
  },
];

const RECORD_FIELDS = ["id", "name", "type", "unique_id", "created_at", "updated_at", "url"];

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator();
});

afterAll(() => emulator.close());

async function create(type: string, body: Record<string, unknown>): Promise<Response> {
  return call(emulator, `/connections/${type}`, { method: "POST", body });
}

describe("POST /connections/{type}", () => {
  it.each(CASES)("creates a $type connection with its defaults and without its secrets", async ({ type, body, shown }) => {
    const response = await create(type, { name: `my ${type}`, ...body });
    expect(response.status).toBe(201);
    const text = await response.text();
    expect(text).not.toContain(SECRET);
    const record = JSON.parse(text);
    expect(Object.keys(record).sort()).toEqual([...RECORD_FIELDS, ...Object.keys(shown)].sort());
    expect(record).toMatchObject({ name: `my ${type}`, type, ...shown });
    expect(record.unique_id).toBe(`${type.toUpperCase()}_CONNECTION_${record.id}`);
    expect(record.url).toBe(`${emulator.url}/${ACCOUNT}/api/connections/${type}/${record.id}`);
    expect(record.created_at).toMatch(ISO_TIME);
    expect(record.updated_at).toBe(record.created_at);
    const again = await call(emulator, `/connections/${type}/${record.id}`);
    expect(await readJson(again)).toEqual(record);
  });

  it("keeps no secret in the state dump", async () => {
    const text = await (await control(emulator, "/state")).text();
    expect(text).toContain("my postgres");
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('"secrets"');
  });

  it("reads booleans as true/false, t/f and 1/0", async () => {
    const cases: [unknown, boolean][] = [
      [true, true],
      ["t", true],
      ["1", true],
      [1, true],
      ["true", true],
      [false, false],
      ["f", false],
      [0, false],
      ["false", false],
    ];
    for (const [ssl, expected] of cases) {
      const response = await create("mysql", { name: "flags", ...sqlServer(3306, false).body, ssl });
      expect((await readJson(response)).ssl, `ssl ${JSON.stringify(ssl)}`).toBe(expected);
    }
  });

  it("takes null as an attribute left out", async () => {
    const response = await create("postgres", { name: "nulls", ...sqlServer(5432, true).body, port: null, database: null });
    expect(await readJson(response)).toMatchObject({ port: 5432, database: "" });
  });

  it.each([
    [
      "postgres",
      { name: "x" },
      "username is required for postgres connections; password is required for postgres connections; host is required for postgres connections",
    ],
    ["postgres", { ...sqlServer(5432, true).body }, "name is required"],
    ["postgres", { name: "  ", ...sqlServer(5432, true).body }, "name must not be blank"],
    ["postgres", { name: "x".repeat(256), ...sqlServer(5432, true).body }, "name must be at most 255 characters"],
    ["postgres", { name: "x", ...sqlServer(5432, true).body, colour: "red" }, "colour is not a known field"],
    ["postgres", { name: "x", ...sqlServer(5432, true).body, port: "5432" }, "port must be an integer between 1 and 65535"],
    ["postgres", { name: "x", ...sqlServer(5432, true).body, port: 70_000 }, "port must be an integer between 1 and 65535"],
    ["postgres", { name: "x", ...sqlServer(5432, true).body, ssl: "maybe" }, 'ssl must be a boolean: true or false (1 or 0, "t" or "f" are taken too)'],
    ["postgres", { name: "x", ...sqlServer(5432, true).body, host: "" }, "host must not be blank"],
    ["postgres", { name: "x", ...sqlServer(5432, true).body, host: 5 }, "host must be a string"],
    ["postgres", { name: "x", ...sqlServer(5432, true).body, tunnel_type: "vpn" }, "tunnel_type must be one of direct, reverse"],
    [
      "postgres",
      { name: "x", username: "etl", password: "p", port: "x" },
      "port must be an integer between 1 and 65535; host is required for postgres connections",
    ],
    ["sftp", { name: "x", username: "u", host: "h", auth_method: "token" }, "auth_method must be one of password, key"],
    ["salesforce", { name: "x", environment: "production" }, "password is required for salesforce connections unless code is given"],
    ["salesforce", { name: "x", environment: "production", code: "abc" }, "redirect_uri is required for salesforce connections when code is given"],
    ["salesforce", { name: "x", password: "token" }, "environment is required for salesforce connections"],
    ["gs", { name: "x", project_id: "p", password: "p" }, "password is not a known field"],
  ])("refuses a %s body with 422: %j", async (type, body, message) => {
    await expectError(await create(type, body), 422, message);
  });

  it("costs one credit a call, like every call", async () => {
    const remaining = (response: Response) => Number(response.headers.get("x-ratelimit-remaining"));
    const first = await create("gs", { name: "credits", project_id: "p" });
    const second = await call(emulator, "/connections/gs/test", { method: "POST", body: { name: "credits", project_id: "p" } });
    expect(remaining(first) - remaining(second)).toBe(1);
  });

  it("answers 404 for a type the service does not know", async () => {
    await expectError(await create("postgress", { name: "x" }), 404, "postgress is not a connection type; GET /connections/types lists them");
  });

  it("creates a connection of a listing kind whose listing is empty", async () => {
    const record = await readJson(await create("crm_platform", { name: "crm", password: "token" }));
    const response = await call(emulator, `/connections/${record.id}/crm_platform/objects`);
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual([]);
  });
});

describe("GET /connections/types", () => {
  it("lists every type of the contract with its name, description, icon and groups", async () => {
    const response = await call(emulator, "/connections/types");
    expect(response.status).toBe(200);
    const types = (await readJson(response)) as Record<string, unknown>[];
    expect(types.map((item) => item.type)).toEqual(CONNECTION_TYPE_NAMES);
    for (const item of types) expect(Object.keys(item)).toEqual(["type", "name", "description", "icon_url", "groups"]);
    expect(types.find((item) => item.type === "postgres")).toMatchObject({
      name: "PostgreSQL",
      icon_url: `${emulator.url}/images/connection_types/postgres.png`,
      groups: [{ group_type: "analytical", group_name: "Databases and warehouses" }],
    });
    expect(types.find((item) => item.type === "salesforce")?.groups).toEqual([{ group_type: "services", group_name: "Services" }]);
  });
});

describe("a state folder (--data)", () => {
  it("holds no secret's text, only what the test of settings needs, across a restart", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "etl-connections-"));
    try {
      const first = await startEmulator({ port: 0, dataDir, fixtures: testFixtures() });
      const body = { name: "kept", username: "etl", password: `wrong-${SECRET}`, host: "db.example.com" };
      const created = await readJson(await call(first, "/connections/postgres", { method: "POST", body }));
      await first.close();
      const file = readFileSync(join(dataDir, "state.json"), "utf8");
      expect(file).toContain('"kept"');
      expect(file).not.toContain(SECRET);

      const second = await startEmulator({ port: 0, dataDir, fixtures: testFixtures() });
      try {
        const response = await call(second, `/connections/postgres/${created.id}/test`, { method: "POST" });
        expect(response.status).toBe(400);
        expect(await readJson(response)).toEqual({ error_message: 'Authentication failed for user "etl"' });
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("reads connections of an older state file, which have no attributes or secrets", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "etl-connections-"));
    try {
      const first = await startEmulator({ port: 0, dataDir, fixtures: testFixtures() });
      const created = await readJson(await call(first, "/connections/postgres", { method: "POST", body: { name: "old", ...sqlServer(5432, true).body } }));
      await first.close();
      const file = join(dataDir, "state.json");
      const state = JSON.parse(readFileSync(file, "utf8"));
      state.tables.connections = state.tables.connections.map(({ attributes: _, secrets: __, ...row }: Record<string, unknown>) => row);
      writeFileSync(file, JSON.stringify(state));

      const second = await startEmulator({ port: 0, dataDir, fixtures: testFixtures() });
      try {
        expect(await readJson(await call(second, `/connections/postgres/${created.id}`))).toMatchObject({ name: "old", host: null, port: null });
        const renamed = await call(second, `/connections/postgres/${created.id}`, { method: "PUT", body: { name: "renamed" } });
        expect((await readJson(renamed)).name).toBe("renamed");
        expect((await call(second, `/connections/postgres/${created.id}/test`, { method: "POST" })).status).toBe(200);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
