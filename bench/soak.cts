/**
 * Long soak under faults: `npm run bench:soak`, which sets the machine up (Node.js, the compiled
 * package, the Pulumi engine) and then runs this file. It runs the soak of
 * test/engine/soak.test.ts (driver: test/support/soak.ts) for longer, through vitest, since the
 * driver and the programs are TypeScript run against the compiled package, and then prints the
 * numbers table again on its own. Unlike `npm test`, it first runs a fault-free cycle, against which
 * the faulty cycles' extra calls are counted (SOAK_BASELINE=1).
 *
 * Settings (environment): SOAK_CYCLES (default 100, where `npm test` runs 1), SOAK_FAULT_RATE
 * (default 0.2), SOAK_SEED (default random, where `npm test` uses a fixed one; printed, and cycle n
 * uses seed + n, so a run with the same seed meets the same faults for the same requests).
 */
const { spawnSync }: typeof import("node:child_process") = require("node:child_process");
const fs: typeof import("node:fs") = require("node:fs");
const os: typeof import("node:os") = require("node:os");
const path: typeof import("node:path") = require("node:path");

const REPO_ROOT = path.resolve(__dirname, "..");
const VITEST = path.join(path.dirname(require.resolve("vitest/package.json", { paths: [REPO_ROOT] })), "vitest.mjs");

function main(): number {
  if (!process.env.PULUMI_ETL_ENGINE_ROOT) {
    console.error("PULUMI_ETL_ENGINE_ROOT is not set: run this with `npm run bench:soak`, which sets up the engine");
    return 2;
  }
  const reportFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "etl-soak-")), "report.txt");
  const seed = process.env.SOAK_SEED || String(Math.floor(Math.random() * 1_000_000));
  const env = { ...process.env, SOAK_CYCLES: process.env.SOAK_CYCLES || "100", SOAK_SEED: seed, SOAK_REPORT_FILE: reportFile, SOAK_BASELINE: "1" };
  console.log(`soak: ${env.SOAK_CYCLES} cycles at fault rate ${process.env.SOAK_FAULT_RATE || "0.2"}, seed ${seed} (SOAK_SEED=${seed} replays it)`);
  const run = spawnSync(process.execPath, [VITEST, "run", "test/engine/soak.test.ts", "-t", "cycles of up, refresh and destroy"], {
    cwd: REPO_ROOT,
    env,
    stdio: "inherit",
  });
  if (fs.existsSync(reportFile)) {
    console.log(`\n${fs.readFileSync(reportFile, "utf8")}`);
  } else {
    console.error("the soak ended without a report (see vitest's output above)");
  }
  return run.status ?? 1;
}

process.exitCode = main();
