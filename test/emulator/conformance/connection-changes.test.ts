import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Fixtures, RunningEmulator } from "../../../emulator";
import { ACCOUNT, call, clockPast, expectError, OTHER_ACCOUNT, OTHER_KEY, readJson, startTestEmulator, testFixtures } from "../helpers";

/** Connections after their create: get, update, delete, the list, and tests of settings. */

const PG = { username: "etl", password: "pg-secret", host: "db.example.com" };

function fixtures(): Fixtures {
  const [acme, globex] = testFixtures().accounts;
  return {
    accounts: [
      {
        ...acme!,
        connections: [
          { id: 301, name: "warehouse", type: "postgres" },
          { id: 302, name: "raw-events", type: "s3", attributes: { username: "AKIA", password: "wrong-key", region: "eu-west-1" } },
          { id: 303, name: "crm", type: "crm_platform", crmObjects: [{ name: "Account" }] },
        ],
        connectionGroups: [{ id: 401, name: "warehouses", connectionIds: [301, 302] }],
      },
      { ...globex!, connections: [{ id: 351, name: "globex-db", type: "postgres" }] },
    ],
  };
}

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator(fixtures());
});

afterAll(() => emulator.close());

async function made(type: string, body: Record<string, unknown>): Promise<any> {
  const response = await call(emulator, `/connections/${type}`, { method: "POST", body });
  expect(response.status).toBe(201);
  return readJson(response);
}

const put = (path: string, body: unknown) => call(emulator, path, { method: "PUT", body });
const post = (path: string, body?: unknown) => call(emulator, path, { method: "POST", body });
const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

async function expectTest(response: Response, failure?: string): Promise<void> {
  expect(response.status).toBe(failure === undefined ? 200 : 400);
  expect(await readJson(response)).toEqual(failure === undefined ? true : { error_message: failure });
}

describe("fixtures", () => {
  it("seed attributes checked like a create, and the type's defaults without them", async () => {
    expect(await readJson(await call(emulator, "/connections/s3/302"))).toMatchObject({ username: "AKIA", region: "eu-west-1" });
    expect(await readJson(await call(emulator, "/connections/postgres/301"))).toMatchObject({ host: null, port: 5432, ssl: true });
  });

  it("refuse attributes a create would refuse, with their path", async () => {
    const bad = fixtures();
    bad.accounts[0]!.connections = [{ id: 301, name: "warehouse", type: "postgres", attributes: { host: "h" } }];
    await expect(startTestEmulator(bad)).rejects.toThrow(/connections\[0\]\.attributes: username is required for postgres connections/);
    bad.accounts[0]!.connections = [{ id: 301, name: "warehouse", type: "postgress" }];
    await expect(startTestEmulator(bad)).rejects.toThrow(/connections\[0\]\.type: must be a connection type/);
  });
});

describe("GET /connections/{type}/{id}", () => {
  it.each([["/connections/mysql/301"], ["/connections/postgres/999"], ["/connections/postgres/351"], ["/connections/nope/301"], ["/connections/postgres/x"]])(
    "answers 404 for %s",
    async (path) => {
      await expectError(await call(emulator, path), 404, "Item not found.");
    },
  );
});

describe("PUT /connections/{type}/{id}", () => {
  it("changes what is given, puts null back to the default, and keeps secrets left out", async () => {
    const created = await made("postgres", { name: "to-change", ...PG, password: "wrong-password", port: 6543 });
    await clockPast(created.updated_at);
    const response = await put(`/connections/postgres/${created.id}`, { name: "changed", port: null, ssl: "f", database: "sales" });
    expect(response.status).toBe(200);
    const changed = await readJson(response);
    expect(changed).toMatchObject({ id: created.id, name: "changed", port: 5432, ssl: false, database: "sales", host: "db.example.com" });
    expect(changed.updated_at > created.updated_at).toBe(true);
    await expectTest(await post(`/connections/postgres/${created.id}/test`), 'Authentication failed for user "etl"');
    await put(`/connections/postgres/${created.id}`, { password: "right" });
    await expectTest(await post(`/connections/postgres/${created.id}/test`));
  });

  it("leaves updated_at alone when nothing differs, secrets included", async () => {
    const created = await made("postgres", { name: "same", ...PG });
    await clockPast(created.updated_at);
    const response = await put(`/connections/postgres/${created.id}`, { name: "same", password: PG.password, port: 5432 });
    expect((await readJson(response)).updated_at).toBe(created.updated_at);
  });

  it("renames a fixture connection seeded without its required attributes", async () => {
    expect((await readJson(await put("/connections/postgres/301", { name: "warehouse" }))).name).toBe("warehouse");
  });

  it.each([
    [{ host: null }, "host is required for postgres connections"],
    [{ colour: "red" }, "colour is not a known field"],
    [{ port: 0 }, "port must be an integer between 1 and 65535"],
    [{ name: "" }, "name must not be blank"],
  ])("refuses %j with 422", async (body, message) => {
    const created = await made("postgres", { name: "strict", ...PG });
    await expectError(await put(`/connections/postgres/${created.id}`, body), 422, message);
  });

  it("answers 404 when the path's type is not the connection's", async () => {
    await expectError(await put("/connections/mysql/301", { name: "x" }), 404, "Item not found.");
  });
});

describe("DELETE /connections/{type}/{id}", () => {
  it("answers the deleted connection, which then leaves every group that held it", async () => {
    const before = await readJson(await call(emulator, "/connection_groups/401"));
    await pause();
    const response = await call(emulator, "/connections/s3/302", { method: "DELETE" });
    expect(response.status).toBe(200);
    expect(await readJson(response)).toMatchObject({ id: 302, type: "s3", name: "raw-events" });
    await expectError(await call(emulator, "/connections/s3/302"), 404, "Item not found.");
    const group = await readJson(await call(emulator, "/connection_groups/401"));
    expect(group.connections.map((c: { id: number }) => c.id)).toEqual([301]);
    expect(group.updated_at > before.updated_at).toBe(true);
    expect(group.modified_by).toEqual(before.modified_by);
  });

  it("answers 404 for another account's connection and leaves it", async () => {
    await expectError(await call(emulator, "/connections/postgres/351", { method: "DELETE" }), 404, "Item not found.");
    expect((await call(emulator, "/connections/postgres/351", { key: OTHER_KEY, account: OTHER_ACCOUNT })).status).toBe(200);
  });
});

describe("GET /connections", () => {
  let names: string[];

  beforeAll(async () => {
    const list = await readJson(await call(emulator, "/connections?limit=100&type=all"));
    names = (list as { name: string }[]).map((c) => c.name);
  });

  it("sorts by name, descending, unless asked otherwise", async () => {
    expect(names).toEqual([...names].sort().reverse());
    const ascending = await readJson(await call(emulator, "/connections?limit=100&sort=name&direction=asc"));
    expect((ascending as { name: string }[]).map((c) => c.name)).toEqual([...names].reverse());
  });

  it("filters by a list of types", async () => {
    await made("gs", { name: "lake", project_id: "acme" });
    const list = (await readJson(await call(emulator, "/connections?type=gs,crm_platform&sort=id&direction=asc"))) as { type: string }[];
    expect(list.map((c) => c.type)).toEqual(["crm_platform", "gs"]);
  });

  it("keeps those updated at or after since", async () => {
    await pause();
    const since = new Date().toISOString();
    const fresh = await made("gs", { name: "fresh", project_id: "acme" });
    const list = (await readJson(await call(emulator, `/connections?since=${since}`))) as { id: number }[];
    expect(list.map((c) => c.id)).toEqual([fresh.id]);
  });

  it("pages with offset and limit, keeping the other parameters in the Link header", async () => {
    const response = await call(emulator, "/connections?sort=created&offset=1&limit=1");
    expect((await readJson(response)) as unknown[]).toHaveLength(1);
    const base = `${emulator.url}/${ACCOUNT}/api/connections?sort=created`;
    expect(response.headers.get("link")).toBe(`<${base}&offset=2&limit=1>; rel="next", <${base}&offset=0&limit=1>; rel="prev"`);
  });

  it.each([
    ["type=postgress", "type must be all or a comma-separated list of connection types (GET /connections/types lists them); not one: postgress"],
    ["sort=colour", "sort must be one of id, name, type, created, updated"],
    ["direction=up", "direction must be asc or desc"],
    ["since=yesterday", "since must be an ISO 8601 date-time, e.g. 2026-01-31T12:00:00Z"],
  ])("answers 400 for %s", async (query, message) => {
    await expectError(await call(emulator, `/connections?${query}`), 400, message);
  });
});

describe("tests of settings", () => {
  it.each([
    ["postgres", { ...PG }, undefined],
    ["postgres", { ...PG, host: "db.invalid" }, "Could not connect to db.invalid:5432: host not found"],
    ["postgres", { ...PG, host: "DB.Invalid.", port: 6543 }, "Could not connect to db.invalid:6543: host not found"],
    ["postgres", { ...PG, password: "wrong-password" }, 'Authentication failed for user "etl"'],
    ["postgres", { ...PG, host: "db.invalid", password: "wrong" }, "Could not connect to db.invalid:5432: host not found"],
    [
      "snowflake",
      { account_name: "acme.invalid", username: "u", password: "p", database: "d", warehouse: "w", region: "r" },
      "Could not connect to acme.invalid: host not found",
    ],
    [
      "athena",
      { username: "u", password: "p", s3_staging_dir: "s3://staging.invalid/results/", region: "r" },
      "Could not connect to staging.invalid: host not found",
    ],
    ["gs", { project_id: "lake.invalid" }, "Could not connect to lake.invalid: host not found"],
    ["azureblobstorage", { username: "store.invalid", password: "p" }, "Could not connect to store.invalid: host not found"],
    ["hdfs", { name_node_host: "nn.invalid", httpfs_host: "fs", name_node_port: 8020 }, "Could not connect to nn.invalid:8020: host not found"],
    ["s3", { username: "AKIA", password: "WrongKey" }, 'Authentication failed for user "AKIA"'],
    ["salesforce", { password: "wrong-token", environment: "production" }, "Authentication failed: the credentials were refused"],
    ["salesforce", { password: "token", environment: "production" }, undefined],
  ])("POST /connections/%s/test with %j", async (type, body, failure) => {
    await expectTest(await post(`/connections/${type}/test`, { name: "probe", ...body }), failure);
  });

  it("checks an unsaved body like a create (422) and saves nothing", async () => {
    const before = ((await readJson(await call(emulator, "/connections?limit=100"))) as unknown[]).length;
    await expectError(await post("/connections/postgres/test", { name: "probe" }), 422, /^username is required for postgres connections/);
    await expectError(await post("/connections/postgress/test", { name: "probe" }), 404);
    await expectTest(await post("/connections/postgres/test", { name: "probe", ...PG }));
    expect(((await readJson(await call(emulator, "/connections?limit=100"))) as unknown[]).length).toBe(before);
  });

  it("tests saved settings by the same rule, with no body or an empty one", async () => {
    const unreachable = await made("mysql", { name: "far", ...PG, host: "replica.invalid" });
    await expectTest(await post(`/connections/mysql/${unreachable.id}/test`), "Could not connect to replica.invalid:3306: host not found");
    await expectTest(await post(`/connections/mysql/${unreachable.id}/test`, {}), "Could not connect to replica.invalid:3306: host not found");
    await expectTest(await post("/connections/postgres/301/test"));
  });

  it("answers 404 and 422 for a saved test like other paths", async () => {
    await expectError(await post("/connections/mysql/301/test"), 404, "Item not found.");
    await expectError(await post("/connections/postgres/301/test", { host: "x" }), 422, "host is not a known field");
  });
});
