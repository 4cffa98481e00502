/**
 * `npm run bench:cancellation`: seconds from a signal to the `pulumi` CLI's end, when `pulumi up`
 * is cancelled while it waits for a running job and for a cluster being created, the way a
 * terminal (SIGINT) or a CI runner (SIGTERM) cancels it: the figure behind "every wait stops
 * within a second or two" and "up returns within seconds of the signal" (docs/operations.md).
 * Each surface (the dynamic resources, the plugin) with each signal, on a new stack against a new
 * emulator at real speed; prints each run's seconds, which waits the CLI reported cancelled,
 * and its exit code. BENCH_RUNS (default 1) repeats each pair. Run by `npm run bench:cancellation`
 * (it builds the package first).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import * as automation from "@pulumi/pulumi/automation/index.js";
import { writeProjectWithInstalledPackage } from "../test/support/installed-package.mts";

type Surface = "dynamic" | "plugin";
type RunningEmulator = Awaited<ReturnType<typeof import("../emulator/index.js").startEmulator>>;

const REPO_ROOT = path.resolve(import.meta.dirname, "..");
const WORK_ROOT = path.join(REPO_ROOT, "bench", ".work");
const { startEmulator } = createRequire(path.join(REPO_ROOT, "package.json"))("pulumi-etl/emulator") as typeof import("../emulator/index.js");
const ACCOUNT = "acme-bench";
const API_KEY = "bench-cancellation-key";
const LONG = { id: 105, name: "long", run: { seconds: 600, outcome: "completed" as const, outputs: [{ name: "out", records: 10 }] } };
const READY = { id: 201, name: "ready", nodes: 1 };
const PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const etl = require("pulumi-etl");
const onPlugin = new pulumi.Config("bench").get("surface") === "plugin";
const declare = (kind, name, args) => (onPlugin ? new pulumi.CustomResource("etl:index:" + kind, name, args) : new etl[kind](name, args));
declare("JobRun", "run", { clusterId: ${READY.id}, packageId: ${LONG.id} });
declare("Cluster", "coming-up", { nodes: 1, name: "coming-up" });
`;
const PLUGIN_ENTRY = "plugins:\n  providers:\n    - name: etl\n      path: node_modules/pulumi-etl/bin\n";

interface Measured {
  surface: Surface;
  signal: NodeJS.Signals;
  seconds: number;
  code: number | null;
  cancelled: string[];
}

function engineRoot(): string {
  const root = process.env.PULUMI_ETL_ENGINE_ROOT;
  if (!root) throw new Error("PULUMI_ETL_ENGINE_ROOT is not set: run `npm run bench:cancellation`, which sets up the engine");
  return root;
}

function projectFor(surface: Surface, root: string): { dir: string; env: Record<string, string> } {
  const dir = path.join(root, surface);
  const backend = path.join(root, `${surface}-backend`);
  mkdirSync(backend, { recursive: true });
  writeProjectWithInstalledPackage(dir, {
    "Pulumi.yaml": `name: etl-bench-cancel\nruntime: nodejs\n${surface === "plugin" ? PLUGIN_ENTRY : ""}`,
    "index.js": PROGRAM,
  });
  const env = {
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: "pulumi-etl-bench",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    ETL_API_URL: "",
    ETL_ACCOUNT_ID: "",
    ETL_API_KEY: "",
  };
  return { dir, env };
}

async function newService(): Promise<RunningEmulator> {
  return startEmulator({
    port: 0,
    fixtures: {
      accounts: [
        { id: 7, uid: ACCOUNT, users: [{ id: 70, name: "Bench User", email: "bench@example.com", apiKey: API_KEY }], packages: [LONG], clusters: [READY] },
      ],
    },
  });
}

/** Until `holds` is true of what the CLI printed, or a minute has passed. */
async function untilPrinted(what: string, printed: () => string, holds: (text: string) => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!holds(printed())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the CLI printed:\n${printed()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function measure(surface: Surface, signal: NodeJS.Signals, project: { dir: string; env: Record<string, string> }, run: number): Promise<Measured> {
  const service = await newService();
  const stackName = `${signal.toLowerCase()}-${run}`;
  try {
    const command = await automation.PulumiCommand.get({ root: engineRoot() });
    const stack = await automation.LocalWorkspace.createStack({ stackName, workDir: project.dir }, { pulumiCommand: command, envVars: project.env });
    await stack.setAllConfig({
      "etl:apiUrl": { value: service.url },
      "etl:accountId": { value: ACCOUNT },
      "etl:apiKey": { value: API_KEY, secret: true },
      "bench:surface": { value: surface },
    });
    const child = spawn(
      path.join(engineRoot(), "bin", "pulumi"),
      ["up", "--yes", "--skip-preview", "--stack", stackName, "--non-interactive", "--color", "never"],
      {
        cwd: project.dir,
        env: { ...process.env, ...project.env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    await untilPrinted(
      "a running job and a cluster being created",
      () => output,
      (text) => /job \d+ running/.test(text) && /cluster \d+ creating/.test(text),
    );
    const sentAt = performance.now();
    child.kill(signal);
    const code = await exited;
    const seconds = (performance.now() - sentAt) / 1000;
    const cancelled = [...output.matchAll(/cancelled while waiting for (job|cluster) \d+/g)].map((match) => match[1]!);
    await stack.workspace.removeStack(stackName, { force: true });
    return { surface, signal, seconds, code, cancelled: [...new Set(cancelled)].sort() };
  } finally {
    await service.close();
  }
}

const runs = Number(process.env.BENCH_RUNS ?? "1");
mkdirSync(WORK_ROOT, { recursive: true });
const root = mkdtempSync(path.join(WORK_ROOT, "cancellation-"));
try {
  const rows: Measured[] = [];
  for (const surface of ["dynamic", "plugin"] as const) {
    const project = projectFor(surface, root);
    for (let run = 1; run <= runs; run++) {
      for (const signal of ["SIGINT", "SIGTERM"] as const) {
        const row = await measure(surface, signal, project, run);
        rows.push(row);
        console.log(`${surface} ${signal}: ${row.seconds.toFixed(1)} s, exit ${row.code}, waits cancelled: ${row.cancelled.join(", ") || "none"}`);
      }
    }
  }
  console.log("\nseconds from the signal to the CLI's end, pulumi up waiting for a running job and a cluster being created");
  console.log(`${"surface".padEnd(10)} ${"signal".padEnd(8)} seconds`);
  for (const row of rows) console.log(`${row.surface.padEnd(10)} ${row.signal.padEnd(8)} ${row.seconds.toFixed(1).padStart(7)}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
