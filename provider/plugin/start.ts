#!/usr/bin/env node
/**
 * The plugin's start, from its one file (`bundle.js`, as `bin/pulumi-resource-etl` runs it) or,
 * in the release's executable, from the bundle it carries. V8 compiles a function when it first
 * runs, and the code caches of Node.js (its compile cache, a single executable's code cache) hold
 * only what was compiled before a file ran: of a bundle, its top level, not the modules inside
 * it, which every start compiled again. This start keeps V8's code of every function the plugin
 * compiled in its first second, once per bundle, Node.js and flags, beside Node.js's own compile
 * cache (`NODE_COMPILE_CACHE`, or the system's temporary folder), and later starts read it rather
 * than compile.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as nodeModule from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import * as vm from "node:vm";
import * as zlib from "node:zlib";
import { PLUGIN_ASSET, releaseAssets } from "./release-assets";

/** How long after the bundle starts its code is kept (or when the process ends, if sooner): its load, the engine's first calls and a resource's. */
const KEEP_AFTER_MS = 1000;

/**
 * The file of V8's code for this bundle on this Node.js, in a folder of this user's only (code read
 * from a file runs as the plugin), or undefined where there is no such folder.
 */
function codeCacheFile(code: Uint8Array): string | undefined {
  if (typeof process.getuid !== "function") return undefined;
  const base = process.env.NODE_COMPILE_CACHE || path.join(os.tmpdir(), "node-compile-cache");
  const dir = path.join(base, "pulumi-resource-etl");
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const owner = fs.statSync(dir);
    if (owner.uid !== process.getuid() || (owner.mode & 0o022) !== 0) return undefined;
  } catch {
    return undefined;
  }
  // The code told by its length and CRC-32, as Node.js's own compile cache tells it (a millisecond
  // for the plugin's 4 MB, so every copy of one build shares a file); V8 refuses code made under
  // other flags, so each set of flags keeps its own.
  const facts = [code.byteLength, zlib.crc32(code), process.version, process.arch, process.execArgv, process.env.NODE_OPTIONS ?? ""];
  const key = createHash("sha256").update(JSON.stringify(facts)).digest("hex");
  return path.join(dir, `${key.slice(0, 32)}.v8`);
}

function readIfThere(file: string | undefined): Buffer | undefined {
  try {
    return file === undefined ? undefined : fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** How many builds' code the folder keeps: the newest, as builds, versions and flags come and go. */
const KEPT_BUILDS = 8;

function forgetOlderBuilds(dir: string): void {
  const byAge = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".v8"))
    .map((name) => ({ file: path.join(dir, name), mtimeMs: fs.statSync(path.join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { file } of byAge.slice(KEPT_BUILDS)) fs.rmSync(file, { force: true });
}

/** Writes the script's code as it is now, whole or not at all (other starts may read it at once). */
function keepCode(script: vm.Script, file: string): void {
  const staging = `${file}.${process.pid}`;
  try {
    fs.writeFileSync(staging, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(staging, file);
    forgetOlderBuilds(path.dirname(file));
  } catch {
    fs.rmSync(staging, { force: true });
  }
}

/** The plugin's code: `bundle.js` beside this file, or in the release's executable the asset it carries. */
interface PluginCode {
  bytes: Uint8Array;
  filename: string;
  require: NodeJS.Require;
}

function pluginCode(): PluginCode {
  const sea = releaseAssets();
  if (sea) {
    const filename = path.join(path.dirname(process.execPath), PLUGIN_ASSET);
    return { bytes: new Uint8Array(sea.getAsset(PLUGIN_ASSET)), filename, require };
  }
  const bundle = path.join(__dirname, "bundle.js");
  return { bytes: fs.readFileSync(bundle), filename: bundle, require: nodeModule.createRequire(bundle) };
}

/** Runs the plugin's code as Node.js runs a CommonJS file, from the kept code where there is any. */
function runPlugin(code: PluginCode): void {
  const cacheFile = codeCacheFile(code.bytes);
  const cachedData = readIfThere(cacheFile);
  // esbuild writes its bundles in ASCII but for comments (its default charset), so the bytes are
  // taken as Latin-1: a copy, where decoding UTF-8 took 9 ms of the start.
  const text = Buffer.from(code.bytes.buffer, code.bytes.byteOffset, code.bytes.byteLength).toString("latin1").replace(/^#!.*/, "");
  const script = new vm.Script(nodeModule.wrap(text), {
    filename: code.filename,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const compiled = script.runInThisContext() as (...args: unknown[]) => void;
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected)) {
    let kept = false;
    const keep = () => {
      if (!kept) keepCode(script, cacheFile);
      kept = true;
    };
    // The engine interrupts the plugin when its operation ends, which may come first.
    setTimeout(keep, KEEP_AFTER_MS).unref();
    process.once("exit", keep);
  }
  const module = { exports: {}, filename: code.filename, id: code.filename };
  compiled.call(module.exports, module.exports, code.require, module, code.filename, path.dirname(code.filename));
}

runPlugin(pluginCode());
