/**
 * The calls and seconds of `etl-coverage` over an account of 1,000 objects (BENCH_COVERAGE_OBJECTS
 * to choose another size): connections, connection groups, packages and hooks in equal parts,
 * made through the emulator's fixtures, against a state that holds half of them (a
 * `pulumi stack export` file written here). The command runs as a user runs it, from dist/, to
 * its end; the calls are the emulator's request log. Run by `npm run bench:coverage`.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { startEmulator } from "pulumi-etl/emulator";

const REPO_ROOT = path.resolve(import.meta.dirname, "..");
const CLI = path.join(REPO_ROOT, "dist", "provider", "coverage", "cli.js");
const OBJECTS = Number(process.env.BENCH_COVERAGE_OBJECTS ?? 1000);
const ACCOUNT = "bench-coverage";
const API_KEY = "bench-coverage-key";
const run = promisify(execFile);

const range = (count: number, from: number) => Array.from({ length: count }, (_, i) => from + i);

function fixtures(each: number) {
  return {
    connections: range(each, 3000).map((id) => ({
      id,
      name: `db ${id}`,
      type: "postgres",
      attributes: { host: `db${id}.example.com`, database: "d", username: "u", password: "p" },
    })),
    connectionGroups: range(each, 0).map((i) => ({ name: `group ${i}`, connectionIds: [3000 + i] })),
    packages: range(each, 5000).map((id) => ({ id, name: `package ${id}` })),
    hooks: range(each, 0).map((i) => ({ type: "web" as const, events: ["job.failed" as const], settings: { url: `https://hooks${i}.example.com/etl` } })),
  };
}

/** A state whose plugin resources hold every other connection and package. */
function stateHoldingHalf(each: number): unknown {
  const held = [...range(each, 3000).map((id) => ["Connection", id] as const), ...range(each, 5000).map((id) => ["Package", id] as const)].filter(
    ([, id]) => id % 2 === 0,
  );
  const resources = held.map(([kind, id]) => ({
    urn: `urn:pulumi:bench::coverage::etl:index:${kind}::${kind}-${id}`,
    type: `etl:index:${kind}`,
    custom: true,
    id: String(id),
  }));
  return { version: 3, deployment: { resources } };
}

async function main(): Promise<void> {
  const each = Math.ceil(OBJECTS / 4);
  const emulator = await startEmulator({
    port: 0,
    fixtures: { accounts: [{ id: 7, uid: ACCOUNT, users: [{ id: 70, name: "Bench", email: "bench@example.com", apiKey: API_KEY }], ...fixtures(each) }] },
  });
  const folder = mkdtempSync(path.join(tmpdir(), "coverage-bench-"));
  try {
    const state = path.join(folder, "state.json");
    writeFileSync(state, JSON.stringify(stateHoldingHalf(each)));
    await fetch(`${emulator.url}/_emulator/requests`, { method: "DELETE" });
    const started = performance.now();
    const env = { ...process.env, ETL_API_KEY: API_KEY, ETL_API_URL: emulator.url, ETL_ACCOUNT_ID: ACCOUNT };
    const { stdout, stderr } = await run(process.execPath, [CLI, "--state", state, "--json"], { cwd: folder, env, maxBuffer: 64 * 1024 * 1024 }).catch(
      (error: { code: number; stdout: string; stderr: string }) => {
        if (error.code !== 1) throw new Error(`etl-coverage failed (${error.code}): ${error.stderr}`);
        return error;
      },
    );
    const seconds = (performance.now() - started) / 1000;
    const requests = (await (await fetch(`${emulator.url}/_emulator/requests`)).json()) as Array<{ method: string }>;
    const report = JSON.parse(stdout) as { summary: Record<string, number>; objects: unknown[] };
    const methods = [...new Set(requests.map((request) => request.method))].join(", ");
    console.log(`etl-coverage over ${report.objects.length} objects (${JSON.stringify(report.summary)})`);
    console.log(`  ${requests.length} calls (${methods}), ${seconds.toFixed(2)} s from start to exit, Node.js start included`);
    console.log(`  it said: ${stderr.trim().split("\n").pop()}`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
    await emulator.close();
  }
}

await main();
