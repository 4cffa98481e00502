/**
 * How long the plugin takes from spawn to listening (the moment it prints its port, which the
 * engine waits for) and to its answer to a first call (GetPluginInfo, as the engine's first), and
 * the CPU it spent by then, the median of 20 starts each: the release's self-contained executable
 * for this machine and the script the npm package ships (`bin/pulumi-resource-etl`, which runs the
 * compiled package on the Node.js found on PATH). Reads release/ (`npm run dist` first) and dist/.
 *
 * PLUGIN_START_BASELINE=<another checkout, built and released> measures its two beside these, one
 * start of each in turn, so a machine's drift falls on all alike.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import * as path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const STARTS = 20;
/** Clock ticks of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

const require = createRequire(path.join(ROOT, "package.json"));
const grpc = require("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
const providerRpc = require("@pulumi/pulumi/proto/provider_grpc_pb") as typeof import("@pulumi/pulumi/proto/provider_grpc_pb");
const { Empty } = require("google-protobuf/google/protobuf/empty_pb") as typeof import("google-protobuf/google/protobuf/empty_pb");

interface Start {
  listening: number;
  answered: number;
  cpu: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2;
}

/** The plugin's first call on `port`, as the engine makes it. */
function pluginInfo(port: string): Promise<void> {
  const client = new providerRpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return new Promise((resolve, reject) =>
    client.getPluginInfo(new Empty(), (error) => {
      client.close();
      if (error) reject(error);
      else resolve();
    }),
  );
}

/** The user and system CPU a running process has spent, in milliseconds. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** One start, until its first call is answered; the process is then interrupted as the engine does, after `lingerMs`. */
function startOnce(executable: string, lingerMs = 0): Promise<Start> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(executable, [], { stdio: ["ignore", "pipe", "pipe"], cwd: tmpdir() });
    const ended = new Promise((done) => child.once("exit", done));
    child.stdout.once("data", (port: Buffer) => {
      const listening = performance.now() - started;
      pluginInfo(port.toString().trim()).then(() => {
        const start = { listening, answered: performance.now() - started, cpu: cpuMs(child.pid!) };
        setTimeout(() => {
          child.kill("SIGINT");
          ended.then(() => resolve(start));
        }, lingerMs);
      }, reject);
    });
    child.once("error", reject);
    child.once("exit", (code) => code !== null && code !== 0 && reject(new Error(`${executable} exited ${code}`)));
  });
}

interface Measured {
  name: string;
  executable: string;
  starts: Start[];
}

/** A checkout without its release: said in one line, not as a stack trace. */
class MissingRelease extends Error {}

/** The executables of a checkout: its release's for this machine (unpacked into `scratch`) and its npm package's script. */
function executablesOf(root: string, label: string, scratch: string): Measured[] {
  const version = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
  const arch = { x64: "amd64", arm64: "arm64" }[process.arch as string] ?? process.arch;
  const archive = path.join(root, "release", `pulumi-resource-etl-v${version}-linux-${arch}.tar.gz`);
  if (!existsSync(archive)) throw new MissingRelease(`${archive} is missing; make the release of ${root} first (\`npm run dist\` there), then run this again`);
  const unpacked = mkdtempSync(path.join(scratch, "release-"));
  execFileSync("tar", ["-xzf", archive, "-C", unpacked]);
  return [
    { name: `${label}release executable (${path.basename(archive)})`, executable: path.join(unpacked, "pulumi-resource-etl"), starts: [] },
    { name: `${label}npm package script (bin/pulumi-resource-etl)`, executable: path.join(root, "bin", "pulumi-resource-etl"), starts: [] },
  ];
}

const summary = (values: number[]) =>
  `${median(values).toFixed(0).padStart(5)} ms (min ${Math.min(...values).toFixed(0)}, max ${Math.max(...values).toFixed(0)})`;

const scratch = mkdtempSync(path.join(tmpdir(), "etl-plugin-start-"));
try {
  const baseline = process.env.PLUGIN_START_BASELINE;
  const measured = [...(baseline ? executablesOf(path.resolve(baseline), "baseline: ", scratch) : []), ...executablesOf(ROOT, "", scratch)];
  // The first start of each warms the page cache, as a machine's second run would be, and lives as long as an operation's plugin.
  for (const { executable } of measured) await startOnce(executable, 2000);
  for (let i = 0; i < STARTS; i++) for (const each of measured) each.starts.push(await startOnce(each.executable));
  for (const { name, executable, starts } of measured) {
    console.log(`${name}, ${(statSync(executable).size / 1e6).toFixed(1)} MB, median of ${STARTS}:`);
    console.log(`  listening ${summary(starts.map((start) => start.listening))}`);
    console.log(`  answered  ${summary(starts.map((start) => start.answered))}`);
    console.log(`  CPU       ${summary(starts.map((start) => start.cpu))}`);
  }
} catch (error) {
  if (!(error instanceof MissingRelease)) throw error;
  console.error(`bench:plugin-start: ${error.message}`);
  process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
