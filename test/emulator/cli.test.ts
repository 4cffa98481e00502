import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCEPT, basic, compileEmulatorCli, DANA_KEY, testFixtures } from "./helpers";

const root = resolve(__dirname, "../..");
const cli = join(root, "dist/emulator/cli.js");
const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), "etl-cli-"));

beforeAll(() => void compileEmulatorCli(), 180_000);

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

function startCli(args: string[]): { child: ChildProcess; lines: (count: number) => Promise<string[]> } {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let output = "";
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = (count: number): Promise<string[]> =>
    new Promise((resolveLines, reject) => {
      const check = (): void => {
        const complete = output.split("\n").slice(0, -1);
        if (complete.length >= count) {
          child.stdout!.off("data", onData);
          resolveLines(complete.slice(0, count));
        }
      };
      const onData = (chunk: Buffer): void => {
        output += chunk.toString();
        check();
      };
      child.stdout!.on("data", onData);
      child.once("exit", (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
      check();
    });
  return { child, lines };
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolveCode) => {
    if (child.exitCode !== null) resolveCode(child.exitCode);
    else child.once("exit", (code) => resolveCode(code));
  });
}

describe("etl-emulator CLI", () => {
  it("prints its URL and the default credentials, serves them, and exits 0 on SIGTERM", async () => {
    const { child, lines } = startCli(["--port", "0"]);
    const [listening, account, apiKey] = await lines(3);
    expect(listening).toMatch(/^etl-emulator listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(account).toBe("account: acme-data");
    expect(apiKey).toMatch(/^api key: [0-9a-f]{40}$/);

    const url = listening!.replace("etl-emulator listening on ", "");
    const key = apiKey!.replace("api key: ", "");
    const response = await fetch(`${url}/acme-data/api/user/keys`, { headers: { Accept: ACCEPT, Authorization: basic(key) } });
    expect(response.status).toBe(200);

    child.kill("SIGTERM");
    expect(await exitCode(child)).toBe(0);
  });

  it("exits 0 on SIGINT", async () => {
    const { child, lines } = startCli(["--port", "0"]);
    await lines(1);
    child.kill("SIGINT");
    expect(await exitCode(child)).toBe(0);
  });

  it("prints only the listening line with --fixtures", async () => {
    const path = join(dir, "fixtures.json");
    writeFileSync(path, JSON.stringify(testFixtures()));
    const { child, lines } = startCli(["--port", "0", "--host", "127.0.0.1", "--fixtures", path]);
    const [listening] = await lines(1);
    expect(listening).toMatch(/^etl-emulator listening on http:\/\/127\.0\.0\.1:\d+$/);
    await new Promise((r) => setTimeout(r, 200));
    child.kill("SIGTERM");
    expect(await exitCode(child)).toBe(0);
  });

  it.each([
    [["--port", "abc"], /^etl-emulator: invalid --port "abc"/],
    [["--port", "70000"], /^etl-emulator: invalid --port "70000"/],
    [["--bogus"], /^etl-emulator: Unknown option '--bogus'/],
    [["stray"], /^etl-emulator: Unexpected argument 'stray'/],
    [["--fixtures", "/no/such/fixtures.json"], /^etl-emulator: cannot read fixtures file \/no\/such\/fixtures\.json/],
    [["--speed", "0"], /^etl-emulator: invalid --speed "0": expected a positive number/],
    [["--speed", "fast"], /^etl-emulator: invalid --speed "fast"/],
    [["--speed=-2"], /^etl-emulator: invalid --speed "-2"/],
    [["--speed", "Infinity"], /^etl-emulator: invalid --speed "Infinity"/],
    [["--credits-per-hour", "0"], /^etl-emulator: invalid --credits-per-hour "0": expected a positive integer/],
    [["--credits-per-hour", "1.5"], /^etl-emulator: invalid --credits-per-hour "1.5"/],
    [["--credits-per-hour", "lots"], /^etl-emulator: invalid --credits-per-hour "lots"/],
    [["--data="], /^etl-emulator: invalid --data: must not be empty/],
  ])("rejects %j with exit code 2 and a one-line message", (args, message) => {
    const result = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", timeout: 20_000 });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    const stderr = result.stderr.trimEnd();
    expect(stderr.split("\n")).toHaveLength(1);
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it("prints the usage with every option for --help", () => {
    const result = spawnSync(process.execPath, [cli, "--help"], { encoding: "utf8", timeout: 20_000 });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(
      "usage: etl-emulator [--host H] [--port P] [--fixtures FILE] [--data DIR] [--speed N] [--credits-per-hour N]\n",
    );
  });

  it("applies --credits-per-hour and accepts --speed", async () => {
    const path = join(dir, "fixtures-credits.json");
    writeFileSync(path, JSON.stringify(testFixtures()));
    const { child, lines } = startCli(["--port", "0", "--fixtures", path, "--credits-per-hour", "2", "--speed", "2.5"]);
    const [listening] = await lines(1);
    const url = listening!.replace("etl-emulator listening on ", "");
    const get = (): Promise<Response> => fetch(`${url}/acme-data/api/user/keys`, { headers: { Accept: ACCEPT, Authorization: basic(DANA_KEY) } });
    expect((await get()).headers.get("x-ratelimit-limit")).toBe("2");
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(429);
    child.kill("SIGTERM");
    expect(await exitCode(child)).toBe(0);
  });

  it("rejects an invalid fixtures file with exit code 2 naming the JSON path", () => {
    const path = join(dir, "bad.json");
    writeFileSync(path, JSON.stringify({ accounts: [{ id: 1, uid: "x", users: [{ id: 1, name: "n", email: "nope", apiKey: "k" }] }] }));
    const result = spawnSync(process.execPath, [cli, "--fixtures", path], { encoding: "utf8", timeout: 20_000 });
    expect(result.status).toBe(2);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("accounts[0].users[0].email");
  });

  it("exits 1 with one line when the port is taken", async () => {
    const { child, lines } = startCli(["--port", "0"]);
    const [listening] = await lines(1);
    const port = new URL(listening!.replace("etl-emulator listening on ", "")).port;
    const result = spawnSync(process.execPath, [cli, "--port", port], { encoding: "utf8", timeout: 20_000 });
    expect(result.status).toBe(1);
    expect(result.stderr.trimEnd()).toMatch(/^etl-emulator: cannot start: .*EADDRINUSE/);
    child.kill("SIGTERM");
    await exitCode(child);
  });
});
