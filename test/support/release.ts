/**
 * A user who has only the release's artifacts (release/, written by `npm run dist`): an empty
 * folder outside the repository, a Pulumi home of its own with nothing installed, a file backend,
 * and the `pulumi` CLI run as a child process with a PATH that may hold no Node.js at all.
 */
import { execFileSync, spawn } from "node:child_process";
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import * as path from "node:path";
import type { Service } from "./engine";
import { goProgramEnv } from "./go-flags.mts";

const REPO_ROOT = path.resolve(__dirname, "..", "..");
export const RELEASE_DIR = path.join(REPO_ROOT, "release");
export const VERSION: string = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).version;
const PASSPHRASE = "pulumi-etl-release-test";

/** A release file's path; fails clearly when `npm run dist` has not written it. */
export function releaseFile(name: string): string {
  const file = path.join(RELEASE_DIR, name);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run dist\` first (npm test runs it)`);
  return file;
}

/** The release's archive `<name>-v<version>-linux-<arch>.tar.gz` for this machine, as the engine names the platform. */
export function platformArchive(name: string): string {
  const arch = { x64: "amd64", arm64: "arm64" }[process.arch as string];
  if (!arch) throw new Error(`no ${name} archive is built for ${process.arch}`);
  return releaseFile(`${name}-v${VERSION}-linux-${arch}.tar.gz`);
}

/** The plugin archive for this machine. */
export function pluginArchive(): string {
  return platformArchive("pulumi-resource-etl");
}

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through \`npm test\` (scripts/setup.sh sets it)`);
  return value;
}

/** Whether an executable called `name` is on `searchPath`. */
export function findsOnPath(name: string, searchPath: string): boolean {
  return searchPath.split(path.delimiter).some((dir) => {
    try {
      accessSync(path.join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The folder of the first `name` on this process's PATH, or nothing. */
function folderOf(name: string): string | undefined {
  return (process.env.PATH ?? "").split(path.delimiter).find((dir) => findsOnPath(name, dir));
}

/** Node.js and the programs that only run on it. */
const NODE_PROGRAMS = new Set(["node", "nodejs", "npm", "npx", "corepack"]);

/**
 * A folder of links to the programs of `dirs` but Node.js's: where the system keeps `node` beside
 * its other tools (/usr/bin), the PATH keeps those tools (python3, sh, tar, the C compiler Go
 * uses) and loses Node.js only. The first folder to name a program wins, as on a PATH.
 */
function linkAllButNode(dirs: string[], linkDir: string): string {
  mkdirSync(linkDir, { recursive: true });
  const linked = new Set<string>();
  for (const dir of dirs) {
    for (const name of readdirSync(dir)) {
      if (NODE_PROGRAMS.has(name) || linked.has(name) || !findsOnPath(name, dir)) continue;
      symlinkSync(path.join(dir, name), path.join(linkDir, name));
      linked.add(name);
    }
  }
  return linkDir;
}

/**
 * The engine, the language hosts, Go, and the system's own folders: no Node.js. A system folder
 * that holds `node` is replaced by links to its other programs in `linkDir` (without one, it is
 * left out). Fails when the PATH finds `node` after all, so a test cannot pass by running one.
 */
export function pathWithoutNode(linkDir?: string): string {
  const folders = [
    path.join(requiredEnv("PULUMI_ETL_ENGINE_ROOT"), "bin"),
    path.join(requiredEnv("PULUMI_ETL_LANGUAGES_ROOT"), "bin"),
    folderOf("go"),
    "/usr/local/bin",
    "/usr/bin",
    "/bin",
  ];
  const unique = [...new Set(folders.filter((dir): dir is string => dir !== undefined && existsSync(dir)))];
  const withNode = unique.filter((dir) => findsOnPath("node", dir));
  const kept = unique.filter((dir) => !withNode.includes(dir));
  if (linkDir !== undefined && withNode.length > 0) kept.push(linkAllButNode(withNode, linkDir));
  const searchPath = kept.join(path.delimiter);
  if (findsOnPath("node", searchPath)) throw new Error(`node is still on ${searchPath}`);
  return searchPath;
}

export interface UserMachine {
  /** The empty project folder, outside the repository. */
  dir: string;
  /** A Pulumi home with no plugin installed. */
  home: string;
  env: Record<string, string>;
  /**
   * Runs `pulumi <args>` in the project folder to its end; rejects with the output unless it exits
   * 0. `env` replaces variables of the machine's environment for this run (undefined unsets one).
   */
  pulumi(args: string[], options?: { allowFailure?: boolean; env?: Record<string, string | undefined> }): Promise<{ code: number | null; output: string }>;
  /** Runs a program of the machine (pip, go, npm) in the project folder. */
  exec(file: string, args: string[], extraEnv?: Record<string, string>): string;
  dispose(): void;
}

export interface MachineOptions {
  /** Keep Node.js off the PATH (Python, Go and YAML users need none). */
  withoutNode: boolean;
  /** More environment for every command. */
  env?: Record<string, string>;
  /** Let the engine fetch missing plugins itself, from the address the SDK carries. */
  automaticPluginAcquisition?: boolean;
}

/** `env` with each of `changes` set, or unset where undefined. */
function withChanges(env: Record<string, string>, changes: Record<string, string | undefined>): Record<string, string> {
  const changed = { ...env };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete changed[name];
    else changed[name] = value;
  }
  return changed;
}

/** A fresh machine for one user: folders outside the repository, nothing installed. */
export function newUserMachine(name: string, options: MachineOptions): UserMachine {
  const root = mkdtempSync(path.join(tmpdir(), `etl-user-${name}-`));
  const dir = path.join(root, name);
  const home = path.join(root, "pulumi-home");
  const backend = path.join(root, "backend");
  for (const folder of [dir, home, backend]) mkdirSync(folder, { recursive: true });
  // The rest of the environment is the machine's (HOME, certificates, proxies): its npm, pip and
  // Go settings, and Go's module and build caches, are the user's.
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PATH: options.withoutNode ? pathWithoutNode(path.join(root, "system-bin")) : (process.env.PATH ?? ""),
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    GOTOOLCHAIN: "local",
    ...options.env,
  };
  // The test run's compile cache (scripts/run.sh) stays: a user's machine may have one or not, and
  // Node.js behaves the same either way, while each Node.js process of these tests (npm, the
  // programs, the dynamic resources' provider) compiles its modules again without it. Node.js
  // keys the cache by a file's path, so a project's second operation is what gains: the
  // templates', TypeScript's, Python's and YAML's release files took 291 s of CPU without it and
  // 275 s with it.
  // Unset, not "false": the engine then fetches a missing plugin from the SDK's download address.
  if (options.automaticPluginAcquisition) delete env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION;
  const pulumi = (args: string[], { allowFailure = false, env: changes = {} }: { allowFailure?: boolean; env?: Record<string, string | undefined> } = {}) =>
    new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn(path.join(requiredEnv("PULUMI_ETL_ENGINE_ROOT"), "bin", "pulumi"), [...args, "--non-interactive"], {
        cwd: dir,
        env: withChanges(env, changes),
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.on("error", reject);
      child.on("close", (code) =>
        code === 0 || allowFailure ? resolve({ code, output }) : reject(new Error(`pulumi ${args.join(" ")} exited ${code}:\n${output}`)),
      );
    });
  return {
    dir,
    home,
    env,
    pulumi,
    exec: (file, args, extraEnv = {}) => execFileSync(file, args, { cwd: dir, env: { ...env, ...extraEnv }, encoding: "utf8", stdio: "pipe" }),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The stack's settings for the emulator, the key stored as a secret. */
export async function configureStack(machine: UserMachine, stack: string, service: Service): Promise<void> {
  await machine.pulumi(["stack", "init", stack]);
  await machine.pulumi(["config", "set", "etl:apiUrl", service.url]);
  await machine.pulumi(["config", "set", "etl:accountId", service.accountId]);
  await machine.pulumi(["config", "set", "--secret", "etl:apiKey", service.apiKey]);
}

/**
 * A new virtual environment in the project with `pip install <pipArgs>` in it; returns the
 * environment that makes it active, as a user runs `pulumi` with it active.
 */
export function newVirtualEnv(machine: UserMachine, pipArgs: string[]): Record<string, string> {
  const venv = path.join(machine.dir, "venv");
  machine.exec("python3", ["-m", "venv", venv]);
  machine.exec(path.join(venv, "bin", "python"), ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", ...pipArgs]);
  return { VIRTUAL_ENV: venv, PATH: `${path.join(venv, "bin")}${path.delimiter}${machine.env.PATH}` };
}

/** pip's download cache is the machine's, as Go's module cache is: a user's pip has one too. */
export const RELEASE_PIP_ENV = {
  PIP_CACHE_DIR: process.env.PIP_CACHE_DIR ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), ".cache"), "pip"),
  PIP_DISABLE_PIP_VERSION_CHECK: "1",
};

/**
 * `python3 -m venv venv && . venv/bin/activate` and `pip install <wheel>`, as the Installation page
 * says: the environment is active for every later command (its bin folder first on PATH).
 */
export function installReleaseWheel(machine: UserMachine): void {
  Object.assign(machine.env, newVirtualEnv(machine, [releaseFile(`pulumi_etl-${VERSION}-py3-none-any.whl`)]));
}

/** `pulumi plugin install` from the archive, as a user without a registry does. */
export async function installPluginFromArchive(machine: UserMachine): Promise<void> {
  await machine.pulumi(["plugin", "install", "resource", "etl", VERSION, "--file", pluginArchive()]);
}

/** The Go SDK's module and the version the release serves it at. */
export const GO_MODULE = "github.com/pulumi-etl/pulumi-etl/sdk/go";
const MODULE = GO_MODULE;
const MODULE_VERSION = `v${VERSION}`;

/** The module's files in a module cache: where it was extracted, and the download as fetched. */
function cachedModuleIn(cache: string): { extracted: string; zip: string } {
  return { extracted: path.join(cache, `${MODULE}@${MODULE_VERSION}`), zip: path.join(cache, "cache", "download", MODULE, "@v", `${MODULE_VERSION}.zip`) };
}

/** The module's files in the machine's module cache. */
export function cachedModule(machine: UserMachine): { extracted: string; zip: string } {
  return cachedModuleIn(machine.exec("go", ["env", "GOMODCACHE"]).trim());
}

/**
 * Go's module cache keeps a version once fetched, and every `npm run dist` makes this version
 * anew: the cached copy goes, once, as the run starts (vitest's globalSetup, go-module-cache.ts),
 * so the run's first `go get` fetches the release's and the others find it. Not per test file:
 * the files that install the module run side by side, and one's removal would take the module
 * from under another's `go list` or build.
 */
export function forgetCachedReleaseModule(): void {
  const { extracted, zip } = cachedModuleIn(execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim());
  // Go leaves what it extracts read-only.
  if (existsSync(extracted)) execFileSync("chmod", ["-R", "u+w", extracted]);
  rmSync(extracted, { recursive: true, force: true });
  for (const suffix of [".info", ".mod", ".zip", ".ziphash", ".lock"]) rmSync(zip.replace(/\.zip$/, suffix), { force: true });
}

/**
 * Go resolving the SDK through the release's proxy folder, ahead of the machine's usual proxy;
 * the public checksum database has never seen the module; the tests' flags for Go programs.
 */
export function goReleaseEnv(): Record<string, string> {
  return {
    GOPROXY: `file://${path.join(RELEASE_DIR, "goproxy")},${execFileSync("go", ["env", "GOPROXY"], { encoding: "utf8" }).trim()}`,
    GONOSUMDB: "github.com/pulumi-etl/*",
    ...goProgramEnv(),
    // Go indexes a module of its cache once, taking it as never changing; every `npm run dist`
    // makes this version anew, so the index of an earlier one would hide its new files.
    GODEBUG: "goindex=0",
  };
}
