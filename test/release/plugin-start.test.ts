/**
 * The plugin's start keeps V8's code of the functions it compiled, once per build, and later
 * starts take it: the npm package's script and the release's executable each write one file at
 * their first start and read it unchanged at the next, a build of the same length but other
 * bytes never runs the kept code of another, a folder others could write to is not used, and
 * the code of builds older than the newest 8 is forgotten.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as providerRpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pluginArchive, VERSION } from "../support/release";

const REPO_ROOT = path.resolve(__dirname, "..", "..");
const PLUGIN_DIST = path.join(REPO_ROOT, "dist", "provider", "plugin");

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), "etl-plugin-start-"));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The version a started plugin reports to the engine's first call. */
function versionOf(port: string): Promise<string> {
  const client = new providerRpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return new Promise((resolve, reject) =>
    client.getPluginInfo(new Empty(), (error, info) => {
      client.close();
      if (error || !info) reject(error ?? new Error("no answer"));
      else resolve(info.getVersion());
    }),
  );
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

/**
 * Starts `command` with `cache` as its compile cache (or with the environment's changes given), asks its version, and
 * interrupts it as the engine does at an operation's end.
 */
async function startAndAsk(command: string[], cache: string | Record<string, string | undefined>): Promise<string> {
  const changes = typeof cache === "string" ? { NODE_COMPILE_CACHE: cache } : cache;
  const child = spawn(command[0]!, command.slice(1), { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...changes } });
  const ended = exited(child);
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once("data", (line: Buffer) => resolve(line.toString().trim()));
    child.once("error", reject);
  });
  const version = await versionOf(port);
  child.kill("SIGINT");
  expect(await ended).toBe(0);
  return version;
}

interface Kept {
  name: string;
  mode: number;
  mtimeMs: number;
  bytes: string;
}

function keptCode(cache: string): Kept[] {
  const dir = path.join(cache, "pulumi-resource-etl");
  return readdirSync(dir)
    .sort()
    .map((name) => {
      const { mode, mtimeMs } = statSync(path.join(dir, name));
      return { name, mode: mode & 0o777, mtimeMs, bytes: readFileSync(path.join(dir, name)).toString("base64") };
    });
}

/** The release's executable for this machine, unpacked once. */
function releaseExecutable(): string {
  const dir = path.join(scratch, "release");
  const executable = path.join(dir, "pulumi-resource-etl");
  if (!existsSync(executable)) {
    mkdirSync(dir, { recursive: true });
    execFileSync("tar", ["-xzf", pluginArchive(), "-C", dir]);
  }
  return executable;
}

const STARTS: Array<[string, () => string[]]> = [
  ["the npm package's script", () => [path.join(REPO_ROOT, "bin", "pulumi-resource-etl")]],
  ["the release's executable", () => [releaseExecutable()]],
];

describe.each(STARTS)("the start of %s", (_name, command) => {
  it("keeps the compiled code at its first start, in a folder of the user's only, and reads it unchanged at the next", async () => {
    const cache = mkdtempSync(path.join(scratch, "cache-"));
    const started = command();
    expect(await startAndAsk(started, cache)).toBe(VERSION);
    const first = keptCode(cache);
    expect(first.map(({ name, mode }) => ({ name: /^[0-9a-f]{32}\.v8$/.test(name), mode }))).toEqual([{ name: true, mode: 0o600 }]);
    expect(statSync(path.join(cache, "pulumi-resource-etl")).mode & 0o777).toBe(0o700);
    expect(await startAndAsk(started, cache)).toBe(VERSION);
    // Code V8 refused would be written again at the end of the start that refused it.
    expect(keptCode(cache)).toEqual(first);
  });

  it("keeps nothing in a folder others could write to", async () => {
    const cache = mkdtempSync(path.join(scratch, "shared-"));
    mkdirSync(path.join(cache, "pulumi-resource-etl"));
    chmodSync(path.join(cache, "pulumi-resource-etl"), 0o777);
    expect(await startAndAsk(command(), cache)).toBe(VERSION);
    expect(keptCode(cache)).toEqual([]);
  });
});

describe("the kept code of older builds", () => {
  it("is forgotten beyond the newest 8 when a start keeps its own", async () => {
    const cache = mkdtempSync(path.join(scratch, "builds-"));
    const dir = path.join(cache, "pulumi-resource-etl");
    mkdirSync(dir, { mode: 0o700 });
    const older = Array.from({ length: 8 }, (_, index) => `older-${index}.v8`);
    older.forEach((name, index) => {
      writeFileSync(path.join(dir, name), "", { mode: 0o600 });
      const daysAgo = new Date(Date.now() - (index + 1) * 86_400_000);
      utimesSync(path.join(dir, name), daysAgo, daysAgo);
    });
    expect(await startAndAsk(["node", path.join(PLUGIN_DIST, "start.js")], cache)).toBe(VERSION);
    const kept = keptCode(cache).map(({ name }) => name);
    expect(kept).toHaveLength(8);
    // The start's own and the seven newest of the others: the oldest (8 days old) is gone.
    expect(kept.filter((name) => !older.includes(name))).toHaveLength(1);
    expect(kept).not.toContain("older-7.v8");
  });
});

describe("a start where NODE_COMPILE_CACHE is not set", () => {
  it("keeps its code in the temporary folder's node-compile-cache, as Node.js's own cache would be", async () => {
    const temporary = mkdtempSync(path.join(scratch, "tmp-"));
    expect(await startAndAsk(["node", path.join(PLUGIN_DIST, "start.js")], { NODE_COMPILE_CACHE: undefined, TMPDIR: temporary })).toBe(VERSION);
    expect(keptCode(path.join(temporary, "node-compile-cache")).map(({ name, mode }) => ({ name: /^[0-9a-f]{32}\.v8$/.test(name), mode }))).toEqual([
      { name: true, mode: 0o600 },
    ]);
  });
});

describe("another build of the plugin", () => {
  it("of the same length as the one whose code is kept runs its own code, and keeps it beside", async () => {
    const cache = mkdtempSync(path.join(scratch, "cache-"));
    expect(await startAndAsk(["node", path.join(PLUGIN_DIST, "start.js")], cache)).toBe(VERSION);
    // The same bundle but for the version it reports, of the same length: V8 itself tells code only by its source's length.
    const other = VERSION.replace(/\d/g, (digit) => String((Number(digit) + 1) % 10));
    const build = path.join(scratch, "other-build");
    mkdirSync(build);
    for (const file of ["start.js", "release-assets.js"]) copyFileSync(path.join(PLUGIN_DIST, file), path.join(build, file));
    const bundle = readFileSync(path.join(PLUGIN_DIST, "bundle.js"), "utf8");
    expect(bundle.split(`version: "${VERSION}"`)).toHaveLength(2);
    writeFileSync(path.join(build, "bundle.js"), bundle.replace(`version: "${VERSION}"`, `version: "${other}"`));
    expect(await startAndAsk(["node", path.join(build, "start.js")], cache)).toBe(other);
    expect(keptCode(cache)).toHaveLength(2);
  });
});
