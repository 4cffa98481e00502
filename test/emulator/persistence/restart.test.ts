/** The emulator started on a data folder: every record kept across a restart, written before it is acknowledged, and bad state refused. */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PersistenceError, startEmulator } from "../../../emulator";
import { call, createKey, ed25519Key, LEE_KEY, OTHER_ACCOUNT, OTHER_KEY, readJson, testFixtures } from "../helpers";
import { state, useTempDirs } from "./helpers";

const tempDirs = useTempDirs();
const tempDir = tempDirs.make;

describe("startEmulator with dataDir", () => {
  it("keeps every record across a restart and continues the id sequences", async () => {
    const dataDir = tempDir("etl-data-");
    const first = await startEmulator({ dataDir, fixtures: testFixtures() });
    expect(first.restored).toBe(false);
    const created = [await createKey(first), await createKey(first), await createKey(first, LEE_KEY), await createKey(first, OTHER_KEY, OTHER_ACCOUNT)];
    // Deleting the newest key must not make its id available again.
    const newest = created.at(-1)!;
    expect((await call(first, `/user/keys/${newest.id}`, { method: "DELETE", key: OTHER_KEY, account: OTHER_ACCOUNT })).status).toBe(200);
    const before = await state(first);
    await first.close();

    const second = await startEmulator({ dataDir, fixtures: testFixtures() });
    try {
      expect(second.restored).toBe(true);
      expect(await state(second)).toEqual(before);
      expect((await call(second, `/user/keys/${created[0]!.id}`)).status).toBe(200);
      expect((await createKey(second)).id).toBe(newest.id + 1);
    } finally {
      await second.close();
    }
  });

  it("keeps records of every kind made through the API, and serves them after a restart", async () => {
    const dataDir = tempDir("etl-data-");
    const [acme, other] = testFixtures().accounts;
    const fixtures = {
      accounts: [
        {
          ...acme!,
          packages: [{ id: 101, name: "rollup", run: { seconds: 600, outputs: [{ name: "out", records: 10 }] } }],
          clusters: [{ id: 201, name: "ready", nodes: 2 }],
          connections: [{ id: 301, name: "warehouse", type: "postgres" }],
          notifications: [{ id: 501, title: "hello" }],
        },
        other!,
      ],
    };
    // Slowed right down, so no lifecycle moves between the two reads of the state.
    const first = await startEmulator({ dataDir, fixtures, speed: 0.001 });
    const made = async (path: string, body: unknown, status = 201) => {
      const response = await call(first, path, { method: "POST", body });
      expect(response.status).toBe(status);
      return readJson(response);
    };
    const key = await made("/user/keys", { public_key: ed25519Key("persisted").line });
    const group = await made("/connection_groups", { connection_group: { name: "warehouses" }, connections: [{ id: 301, type: "postgres" }] });
    const cluster = await made("/clusters", { nodes: 1, name: "new" });
    const job = await made("/jobs", { cluster_id: 201, package_id: 101, variables: { day: "2026-11-20" } });
    const validation = await made("/packages/101/validations", {});
    const flow = {
      components: [
        { name: "rows", type: "source", connection: { id: 301 }, table: "orders" },
        { name: "copy", type: "destination", connection: { id: 301 }, table: "orders_copy" },
      ],
      edges: [{ from: "rows", to: "copy" }],
    };
    const pkg = await made("/packages", { name: "copy orders", data_flow_json: flow });
    expect((await call(first, `/packages/${pkg.id}`, { method: "PUT", body: { description: "second version" } })).status).toBe(200);
    const end = { connection: { id: 301, type: "postgres" }, properties: { table: "orders" } };
    const delivery = await made("/deliveries", { source: end, destination: { ...end, properties: { schema_name: "copies" } } });
    await made("/notifications/mark", { id: 501 }, 200);
    const before = await state(first);
    await first.close();

    const second = await startEmulator({ dataDir, fixtures: testFixtures(), speed: 0.001 });
    try {
      expect(second.restored).toBe(true);
      expect(await state(second)).toEqual(before);
      for (const path of [
        `/user/keys/${key.id}`,
        `/connection_groups/${group.id}`,
        `/clusters/${cluster.id}`,
        `/jobs/${job.id}`,
        `/packages/101/validations/${validation.id}`,
        `/packages/${pkg.id}?version=1`,
        `/packages/${pkg.id}/export`,
        `/deliveries/${delivery.id}`,
        "/notifications/501",
      ]) {
        expect((await call(second, path)).status, path).toBe(200);
      }
      expect((await readJson(await call(second, "/notifications/501"))).read).toBe(true);
      expect(await readJson(await call(second, `/packages/${pkg.id}`))).toMatchObject({ version: 2, description: "second version" });
    } finally {
      await second.close();
    }
  });

  it("ignores fixtures once the folder holds state", async () => {
    const dataDir = tempDir("etl-data-");
    const first = await startEmulator({ dataDir, fixtures: testFixtures() });
    await createKey(first);
    const before = await state(first);
    await first.close();

    const other = { accounts: [{ id: 9, uid: "someone-else", users: [{ id: 9, name: "S", email: "s@example.com", apiKey: "s-key" }] }] };
    const second = await startEmulator({ dataDir, fixtures: other });
    try {
      expect(second.accounts.map((account) => account.uid)).toEqual(["acme-data", OTHER_ACCOUNT]);
      expect(await state(second)).toEqual(before);
    } finally {
      await second.close();
    }
  });

  it("writes state.json before acknowledging a change", async () => {
    const dataDir = tempDir("etl-data-");
    const emulator = await startEmulator({ dataDir, fixtures: testFixtures() });
    try {
      const created = await createKey(emulator);
      const saved = JSON.parse(readFileSync(join(dataDir, "state.json"), "utf8"));
      expect(saved.tables.publicKeys.map((row: { id: number }) => row.id)).toContain(created.id);
    } finally {
      await emulator.close();
    }
  });

  it("removes temporary files left by a crash", async () => {
    const dataDir = tempDir("etl-data-");
    writeFileSync(join(dataDir, ".state.json.4242.tmp"), "{");
    const emulator = await startEmulator({ dataDir, fixtures: testFixtures() });
    await emulator.close();
    expect(readdirSync(dataDir)).toEqual(["state.json"]);
  });

  it.each([
    ["not JSON", '{"format": 1, ', /state\.json is not valid JSON/],
    ["another format", JSON.stringify({ format: 2, accounts: [] }), /not an emulator state file \(format 1\)/],
    ["an array", "[]", /not an emulator state file/],
    ["accounts of the wrong shape", JSON.stringify({ format: 1, accounts: {}, sequences: {}, tables: {} }), /accounts must be an array/],
    ["rows without ids", JSON.stringify({ format: 1, accounts: [], sequences: {}, tables: { publicKeys: [{ name: "x" }] } }), /tables must map/],
  ])("refuses to start from a state.json that is %s", async (_, content, message) => {
    const dataDir = tempDir("etl-data-");
    writeFileSync(join(dataDir, "state.json"), content);
    const start = startEmulator({ dataDir });
    await expect(start).rejects.toThrow(PersistenceError);
    await expect(start).rejects.toThrow(message);
    expect(readFileSync(join(dataDir, "state.json"), "utf8")).toBe(content);
  });

  it("refuses a data folder that is a file", async () => {
    const file = join(tempDir("etl-data-"), "plain-file");
    writeFileSync(file, "");
    await expect(startEmulator({ dataDir: file })).rejects.toThrow(PersistenceError);
  });
});
