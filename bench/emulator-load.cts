/**
 * Load benchmark of the emulator: `npm run bench:emulator`, which builds the project first, as
 * this file runs the compiled `dist/emulator/cli.js` and builds nothing itself.
 *
 * The emulator runs as a separate process on 127.0.0.1 (a free port) with its own fixtures and
 * an allowance high enough never to refuse a call; this process drives it over keep-alive
 * connections, one per concurrent client, for a fixed time per scenario:
 *   reads  GET /user/keys/{id} and GET /user/keys?limit=20, half each
 *   mixed  90% those reads, 10% writes: POST /user/keys of a fresh ed25519 key, later DELETE it
 * Settings (environment): BENCH_SECONDS per scenario (default 10, at most 300),
 * BENCH_CONCURRENCY (default 32). Each scenario is preceded by one unmeasured second of the
 * same load, so timings are of warmed-up code. Client and emulator share the machine's cores.
 */
const { spawn }: typeof import("node:child_process") = require("node:child_process");
const { generateKeyPairSync }: typeof import("node:crypto") = require("node:crypto");
const fs: typeof import("node:fs") = require("node:fs");
const os: typeof import("node:os") = require("node:os");
const path: typeof import("node:path") = require("node:path");
const { Pool }: typeof import("undici") = require("undici");

type ChildProcess = import("node:child_process").ChildProcess;
type UndiciPool = import("undici").Pool;

const CLI = path.resolve(__dirname, "../dist/emulator/cli.js");
const ACCEPT = "application/vnd.service+json; version=2";
const ACCOUNT = "bench";
const API_KEY = "bench-key-0001";
const PRELOADED_KEYS = 100;
const MAX_REQUESTS_PER_SCENARIO = 5_000_000;
const WARM_UP_MS = 1000;

function readSetting(name: string, fallback: number, max: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new Error(`${name} must be an integer from 1 to ${max}, got "${text}"`);
  }
  return value;
}

const SECONDS = readSetting("BENCH_SECONDS", 10, 300);
const CONCURRENCY = readSetting("BENCH_CONCURRENCY", 32, 1024);

// ---- keys in the OpenSSH wire format (RFC 4253 section 6.6)

function sshString(data: Buffer | string): Buffer {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

let keyCounter = 0;

function freshEd25519Line(): string {
  const { publicKey } = generateKeyPairSync("ed25519");
  const raw = publicKey.export({ format: "der", type: "spki" }).subarray(-32);
  const blob = Buffer.concat([sshString("ssh-ed25519"), sshString(raw)]);
  return `ssh-ed25519 ${blob.toString("base64")} bench-${++keyCounter}`;
}

// ---- the emulator process

function writeFixtures(dir: string): string {
  const file = path.join(dir, "fixtures.json");
  const publicKeys = Array.from({ length: PRELOADED_KEYS }, (_, i) => ({ id: i + 1, publicKey: freshEd25519Line() }));
  const fixtures = {
    accounts: [{ id: 1, uid: ACCOUNT, users: [{ id: 1, name: "Bench User", email: "bench@example.com", apiKey: API_KEY }], publicKeys }],
  };
  fs.writeFileSync(file, JSON.stringify(fixtures));
  return file;
}

function startEmulator(fixtures: string): Promise<{ child: ChildProcess; url: string }> {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm run bench:emulator does)`);
  const args = [CLI, "--host", "127.0.0.1", "--port", "0", "--fixtures", fixtures, "--credits-per-hour", "1000000000"];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error("the emulator did not start within 15 s")), 15_000);
    child.once("exit", (code) => reject(new Error(`the emulator exited with ${code}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /etl-emulator listening on (http:\/\/\S+)/.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      resolve({ child, url: match[1]! });
    });
  });
}

function stopEmulator(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

// ---- load

const HEADERS = { accept: ACCEPT, authorization: `Basic ${Buffer.from(`${API_KEY}:`).toString("base64")}` };
const BASE = `/${ACCOUNT}/api`;

interface Operation {
  method: "GET" | "POST" | "DELETE";
  path: string;
  body?: string;
  /** Called with the response body of a successful request. */
  onSuccess?: (body: string) => void;
}

type Scenario = (pending: number[]) => Operation;

function readOperation(): Operation {
  if (Math.random() < 0.5) return { method: "GET", path: `${BASE}/user/keys/${1 + Math.floor(Math.random() * PRELOADED_KEYS)}` };
  return { method: "GET", path: `${BASE}/user/keys?limit=20` };
}

/** Creates a key, or deletes the one this client created last. */
function writeOperation(pending: number[]): Operation {
  const id = pending.pop();
  if (id !== undefined) return { method: "DELETE", path: `${BASE}/user/keys/${id}` };
  return {
    method: "POST",
    path: `${BASE}/user/keys`,
    body: JSON.stringify({ public_key: freshEd25519Line() }),
    onSuccess: (body) => pending.push((JSON.parse(body) as { id: number }).id),
  };
}

const SCENARIOS: Record<string, Scenario> = {
  reads: () => readOperation(),
  mixed: (pending) => (Math.random() < 0.9 ? readOperation() : writeOperation(pending)),
};

interface Tally {
  requests: number;
  errors: number;
  latencies: number[];
}

async function send(pool: UndiciPool, operation: Operation): Promise<boolean> {
  const headers = operation.body === undefined ? HEADERS : { ...HEADERS, "content-type": "application/json" };
  const response = await pool.request({ method: operation.method, path: operation.path, headers, body: operation.body });
  const body = await response.body.text();
  const ok = response.statusCode >= 200 && response.statusCode < 300;
  if (ok) operation.onSuccess?.(body);
  return ok;
}

/** One client: requests back to back on its own connection until time or count runs out. */
async function client(pool: UndiciPool, scenario: Scenario, deadline: number, tally: Tally): Promise<void> {
  const pending: number[] = [];
  while (performance.now() < deadline && tally.requests < MAX_REQUESTS_PER_SCENARIO) {
    const started = performance.now();
    let ok = false;
    try {
      ok = await send(pool, scenario(pending));
    } catch {
      ok = false;
    }
    tally.requests++;
    if (!ok) tally.errors++;
    tally.latencies.push(performance.now() - started);
  }
}

async function drive(pool: UndiciPool, scenario: Scenario, durationMs: number): Promise<Tally & { elapsedMs: number }> {
  const tally: Tally = { requests: 0, errors: 0, latencies: [] };
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(Array.from({ length: CONCURRENCY }, () => client(pool, scenario, deadline, tally)));
  return { ...tally, elapsedMs: performance.now() - started };
}

// ---- report

interface Row {
  scenario: string;
  requests: number;
  errors: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
}

function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

function summarize(scenario: string, result: Tally & { elapsedMs: number }): Row {
  const sorted = Float64Array.from(result.latencies).sort();
  return {
    scenario,
    requests: result.requests,
    errors: result.errors,
    perSecond: result.requests / (result.elapsedMs / 1000),
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
  };
}

function printTable(rows: Row[]): void {
  const header = ["scenario", "requests", "errors", "requests/s", "p50 ms", "p95 ms", "p99 ms"];
  const cells = rows.map((row) => [
    row.scenario,
    String(row.requests),
    String(row.errors),
    row.perSecond.toFixed(0),
    row.p50.toFixed(2),
    row.p95.toFixed(2),
    row.p99.toFixed(2),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((line) => line[i]!.length)));
  const format = (line: string[]): string => line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  process.stdout.write(`${format(header)}\n${cells.map(format).join("\n")}\n`);
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "etl-bench-"));
  const { child, url } = await startEmulator(writeFixtures(dir));
  const pool = new Pool(url, { connections: CONCURRENCY, pipelining: 1 });
  // Bounded even if something hangs: a stuck run ends instead of holding the machine.
  const watchdog = setTimeout(
    () => {
      process.stderr.write("bench: time limit exceeded, stopping\n");
      child.kill("SIGKILL");
      process.exit(1);
    },
    (Object.keys(SCENARIOS).length * (SECONDS + WARM_UP_MS / 1000) + 60) * 1000,
  );
  watchdog.unref();
  try {
    process.stdout.write(`emulator at ${url}; ${SECONDS} s per scenario, concurrency ${CONCURRENCY}, Node ${process.version}, ${os.cpus().length} CPUs\n`);
    const rows: Row[] = [];
    for (const [name, scenario] of Object.entries(SCENARIOS)) {
      await drive(pool, scenario, WARM_UP_MS);
      rows.push(summarize(name, await drive(pool, scenario, SECONDS * 1000)));
    }
    printTable(rows);
  } finally {
    await pool.close();
    await stopEmulator(child);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
