import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PersistenceError, startEmulator } from "../../emulator";
import { ACCEPT, basic, call, compileEmulatorCli, createKey, ed25519Key, LEE_KEY, OTHER_ACCOUNT, OTHER_KEY, readJson, testFixtures } from "./helpers";

const root = resolve(__dirname, "../..");
const dirs: string[] = [];
const children: ChildProcess[] = [];
/**
 * The CLI is compiled into a folder of this file's own: other test files rebuild and run
 * `dist` concurrently, and a file rewritten while a process loads it would fail at random.
 * Inside the repository, so the compiled code resolves its dependencies from node_modules.
 */
let cli = "";

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

function build(): void {
  const work = join(root, "test", ".work");
  mkdirSync(work, { recursive: true });
  const outDir = mkdtempSync(join(work, "persistence-dist-"));
  dirs.push(outDir);
  cli = compileEmulatorCli(outDir);
}

beforeAll(build, 180_000);

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function state(emulator: { url: string }): Promise<any> {
  return readJson(await fetch(`${emulator.url}/_emulator/state`));
}

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
    ["not JSON", "{\"format\": 1, ", /state\.json is not valid JSON/],
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

// ---- the CLI, killed without warning

interface CliProcess {
  child: ChildProcess;
  url: string;
  lines: string[];
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolveExit) => {
    if (child.exitCode !== null || child.signalCode !== null) resolveExit(child.exitCode);
    else child.once("exit", (code) => resolveExit(code));
  });
}

/** Starts the CLI and resolves once it has printed its listening line and a short pause passed. */
function startCli(args: string[]): Promise<CliProcess> {
  const child = spawn(process.execPath, [cli, "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolveStart, reject) => {
    child.once("exit", (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /^etl-emulator listening on (\S+)$/m.exec(stdout);
      // The other startup lines are written together with the first.
      if (match !== null) setTimeout(() => resolveStart({ child, url: match[1]!, lines: stdout.trimEnd().split("\n") }), 100);
    });
  });
}

function post(url: string, apiKey: string): Promise<Response> {
  return fetch(`${url}/acme-data/api/user/keys`, {
    method: "POST",
    headers: { Accept: ACCEPT, Authorization: basic(apiKey), "Content-Type": "application/json" },
    body: JSON.stringify({ public_key: ed25519Key("crash").line }),
  });
}

/** Several clients create keys until `count` are acknowledged; the process is killed at once. */
async function createUntilKilled(running: CliProcess, apiKey: string, count: number): Promise<number[]> {
  const acknowledged: number[] = [];
  let killed = false;
  const client = async (): Promise<void> => {
    while (!killed) {
      let response: Response;
      try {
        response = await post(running.url, apiKey);
      } catch {
        return; // the connection died with the process
      }
      if (response.status !== 201) throw new Error(`unexpected status ${response.status}`);
      acknowledged.push((await readJson(response)).id);
      if (acknowledged.length >= count && !killed) {
        killed = true;
        running.child.kill("SIGKILL");
      }
    }
  };
  await Promise.all(Array.from({ length: 6 }, client));
  await exited(running.child);
  return acknowledged;
}

describe("etl-emulator --data", () => {
  it("loses no acknowledged record when killed with SIGKILL", async () => {
    const dataDir = tempDir("etl-crash-");
    const first = await startCli(["--data", dataDir]);
    expect(first.lines).toHaveLength(3);
    const apiKey = first.lines[2]!.replace("api key: ", "");

    const acknowledged = await createUntilKilled(first, apiKey, 40);
    expect(first.child.signalCode).toBe("SIGKILL");
    const saved = JSON.parse(readFileSync(join(dataDir, "state.json"), "utf8"));
    const savedIds = saved.tables.publicKeys.map((row: { id: number }) => row.id);
    expect(savedIds).toEqual(expect.arrayContaining(acknowledged));

    const second = await startCli(["--data", dataDir]);
    // Restored state: the key printed on the first start still works, so it is not printed again.
    expect(second.lines).toEqual([expect.stringMatching(/^etl-emulator listening on /)]);
    for (const id of acknowledged) {
      const response = await fetch(`${second.url}/acme-data/api/user/keys/${id}`, { headers: { Accept: ACCEPT, Authorization: basic(apiKey) } });
      expect(response.status, `key ${id}`).toBe(200);
    }
    second.child.kill("SIGTERM");
    expect(await exited(second.child)).toBe(0);
  });

  it.each([
    ["a corrupt state.json", "{\"format\": 1, \"acc", /^etl-emulator: .*state\.json is not valid JSON/],
    ["a foreign state.json", JSON.stringify({ hello: "world" }), /^etl-emulator: .*state\.json cannot be loaded: it is not an emulator state file/],
  ])("exits 2 with one line on %s", (_, content, message) => {
    const dataDir = tempDir("etl-corrupt-");
    writeFileSync(join(dataDir, "state.json"), content);
    const result = spawnSync(process.execPath, [cli, "--port", "0", "--data", dataDir], { encoding: "utf8", timeout: 20_000 });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    const stderr = result.stderr.trimEnd();
    expect(stderr.split("\n")).toHaveLength(1);
    expect(stderr).toMatch(message);
  });

  it("creates the folder when it does not exist", async () => {
    const dataDir = join(tempDir("etl-new-"), "nested", "data");
    const running = await startCli(["--data", dataDir]);
    expect(existsSync(join(dataDir, "state.json"))).toBe(true);
    running.child.kill("SIGTERM");
    expect(await exited(running.child)).toBe(0);
  });
});
