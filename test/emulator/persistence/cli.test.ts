/** The etl-emulator command on a data folder: no acknowledged record lost when killed, one line for bad state, the folder made when missing. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ACCEPT, basic, builtEmulatorCli, ed25519Key, readJson } from "../helpers";
import { useTempDirs } from "./helpers";

const tempDirs = useTempDirs();
const tempDir = tempDirs.make;
const children: ChildProcess[] = [];
const cli = builtEmulatorCli();

// Registered after the folders' clean-up, so it runs before it: no process is left in a removed folder.
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

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
    ["a corrupt state.json", '{"format": 1, "acc', /^etl-emulator: .*state\.json is not valid JSON/],
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
