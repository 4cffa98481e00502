/**
 * How long the plugin takes from spawn to serving gRPC (the moment it prints its port, which the
 * engine waits for), the median of 10 starts each: the release's self-contained executable for
 * this machine against the script the npm package ships (`bin/pulumi-resource-etl`, which runs the
 * compiled package on the Node.js found on PATH). Reads release/ (`npm run dist` first) and dist/.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const STARTS = 10;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2;
}

/** Milliseconds from spawn to the first line on stdout, then the process is stopped. */
function startOnce(executable: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(executable, [], { stdio: ["ignore", "pipe", "pipe"], cwd: tmpdir() });
    child.stdout.once("data", () => {
      resolve(performance.now() - started);
      child.kill();
    });
    child.once("error", reject);
    child.once("exit", (code) => code !== null && code !== 0 && reject(new Error(`${executable} exited ${code}`)));
  });
}

async function measure(name: string, executable: string): Promise<void> {
  await startOnce(executable); // the first start warms the page cache, as a machine's second run would be
  const times: number[] = [];
  for (let i = 0; i < STARTS; i++) times.push(await startOnce(executable));
  const size = (statSync(executable).size / 1e6).toFixed(1);
  console.log(
    `${name.padEnd(44)} ${median(times).toFixed(0).padStart(5)} ms (median of ${STARTS}; min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)})  ${size} MB`,
  );
}

const arch = { x64: "amd64", arm64: "arm64" }[process.arch as string] ?? process.arch;
const archive = path.join(ROOT, "release", `pulumi-resource-etl-v${VERSION}-linux-${arch}.tar.gz`);
const unpacked = mkdtempSync(path.join(tmpdir(), "etl-plugin-start-"));
try {
  execFileSync("tar", ["-xzf", archive, "-C", unpacked]);
  await measure(`release executable (${path.basename(archive)})`, path.join(unpacked, "pulumi-resource-etl"));
  await measure("npm package script (bin/pulumi-resource-etl)", path.join(ROOT, "bin", "pulumi-resource-etl"));
} finally {
  rmSync(unpacked, { recursive: true, force: true });
}
