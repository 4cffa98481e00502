import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ACCEPT, basic, builtEmulatorCli, DANA_KEY, testFixtures } from "./helpers";
import { abortMidBody } from "./raw-http";

const cli = builtEmulatorCli();
const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), "etl-cli-"));

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

interface StartedCli {
  child: ChildProcess;
  lines: (count: number) => Promise<string[]>;
  stderr: () => string;
  /** Everything printed on standard output so far. */
  stdout: () => string;
}

function startCli(args: string[]): StartedCli {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let output = "";
  let stderr = "";
  let stdout = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
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
  return { child, lines, stderr: () => stderr, stdout: () => stdout };
}

/** Polls until `condition` holds, for output another process writes when it gets to it. */
async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A CLI on a free port with the test fixtures; resolves to it and its URL. */
async function startWithFixtures(name: string, args: string[] = []): Promise<StartedCli & { url: string }> {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(testFixtures()));
  const started = startCli(["--port", "0", "--fixtures", path, ...args]);
  const [listening] = await started.lines(1);
  return { ...started, url: listening!.replace("etl-emulator listening on ", "") };
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
    const { child, url, stdout } = await startWithFixtures("fixtures", ["--host", "127.0.0.1"]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    child.kill("SIGTERM");
    expect(await exitCode(child)).toBe(0);
    expect(stdout()).toBe(`etl-emulator listening on ${url}\n`);
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
    [["--credit-window-seconds", "0"], /^etl-emulator: invalid --credit-window-seconds "0": expected a positive integer/],
    [["--data="], /^etl-emulator: invalid --data: must not be empty/],
    [["--public-url", "etl.example"], /^etl-emulator: invalid --public-url "etl\.example": expected an absolute URL/],
    [["--public-url", "ftp://etl.example"], /^etl-emulator: invalid --public-url "ftp:\/\/etl\.example": the scheme must be http or https/],
    [["--public-url", "http://etl.example/api"], /^etl-emulator: invalid --public-url "http:\/\/etl\.example\/api": it must not have a path/],
    [["--public-url", "http://a:b@etl.example"], /^etl-emulator: invalid --public-url "http:\/\/a:b@etl\.example": it must not contain user information/],
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
      "usage: etl-emulator [--host H] [--port P] [--fixtures FILE] [--data DIR] [--speed N] [--credits-per-hour N] [--credit-window-seconds N] [--public-url URL]\n",
    );
  });

  it("applies --credits-per-hour and accepts --speed", async () => {
    const { child, url } = await startWithFixtures("fixtures-credits", ["--credits-per-hour", "2", "--speed", "2.5"]);
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

  it("names --public-url in url fields", async () => {
    const { child, url } = await startWithFixtures("fixtures-public-url", ["--public-url", "https://etl.example:8443"]);
    const response = await fetch(`${url}/acme-data/api/clusters`, {
      method: "POST",
      headers: { Accept: ACCEPT, Authorization: basic(DANA_KEY), "Content-Type": "application/json" },
      body: JSON.stringify({ nodes: 1, name: "public" }),
    });
    const cluster = (await response.json()) as { id: number; url: string };
    expect(cluster.url).toBe(`https://etl.example:8443/acme-data/api/clusters/${cluster.id}`);
    child.kill("SIGTERM");
    expect(await exitCode(child)).toBe(0);
  });

  it("reports a client that hangs up mid-request in one line, without a stack trace", async () => {
    const { child, url, stderr } = await startWithFixtures("fixtures-aborts");
    const api = { Accept: ACCEPT, Authorization: basic(DANA_KEY), "Content-Type": "application/json" };
    await abortMidBody(url, "POST", "/acme-data/api/user/keys", api);
    await waitFor(() => stderr().includes("\n"));
    await abortMidBody(url, "PUT", "/_emulator/faults", { "Content-Type": "application/json" });
    await waitFor(() => stderr().split("\n").length > 2);
    // A client gone before a delayed answer leaves nothing to report.
    await fetch(`${url}/_emulator/faults`, { method: "PUT", headers: { "Content-Type": "application/json" }, body: '{"rate":1,"kinds":["latency"],"seed":1}' });
    await fetch(`${url}/acme-data/api/user/keys`, { headers: api, signal: AbortSignal.timeout(20) }).catch(() => undefined);
    // The delayed request is logged once the service has finished with it: only then is there nothing more to report.
    const lastLogged = async () => ((await (await fetch(`${url}/_emulator/requests`)).json()) as { method: string; fault: string | null }[]).at(-1);
    await expect.poll(lastLogged, { timeout: 10_000, interval: 50 }).toMatchObject({ method: "GET", fault: "latency" });

    expect((await fetch(`${url}/_emulator/health`)).status).toBe(200);
    expect(stderr()).not.toMatch(/^\s+at /m);
    expect(stderr().split("\n")).toEqual([
      "etl-emulator: client closed the connection before the response (POST /acme-data/api/user/keys)",
      "etl-emulator: client closed the connection before the response (PUT /_emulator/faults)",
      "",
    ]);
    child.kill("SIGTERM");
    expect(await exitCode(child)).toBe(0);
  });
});
