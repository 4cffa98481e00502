/**
 * `npm run dist`: everything a release publishes, in one folder (release/, ignored by git), each
 * artifact stamped with package.json's version, and `checksums.txt` (SHA-256 of every file).
 *
 *   --plugin-download-url URL   where the SDKs tell the engine to fetch the plugin from
 *                               (also ETL_PLUGIN_DOWNLOAD_URL; default: the project's releases)
 *   --only PART[,PART]          build only these parts (for trying one out; checksums still cover all)
 */
const fs: typeof import("node:fs") = require("node:fs");
const path: typeof import("node:path") = require("node:path");
const { REPO_ROOT, packageVersion, sha256 }: import("./types").ContextModule = require("./context.cts");
/** Every file under a folder, as `/`-separated paths relative to it. */
const { filesUnder }: { filesUnder(root: string): string[] } = require("../sdk.cts");
type DistContext = import("./types").DistContext;

/** In order: the SDKs first, as the packages after them are made from them. */
const PARTS = ["sdks", "plugin", "etl", "policy", "npm", "python", "go", "templates"] as const;

type Part = import("./types").Part;

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
}

function scratchFolder(): string {
  const parent = path.join(REPO_ROOT, ".pulumi-local");
  fs.mkdirSync(parent, { recursive: true });
  return fs.mkdtempSync(path.join(parent, "dist-"));
}

function contextFrom(args: string[]): DistContext {
  const version = packageVersion();
  const plugin: typeof import("../../provider/plugin") = require("pulumi-etl/plugin");
  const releaseDir = path.join(REPO_ROOT, "release");
  return {
    repoRoot: REPO_ROOT,
    releaseDir,
    version,
    pluginDownloadURL: option(args, "--plugin-download-url") ?? process.env.ETL_PLUGIN_DOWNLOAD_URL ?? plugin.defaultPluginDownloadURL(version),
    // Inside the repository: the TypeScript SDK compiles against its node_modules from there.
    scratchDir: scratchFolder(),
    say: (line) => console.log(`[dist] ${line}`),
  };
}

function writeChecksums(releaseDir: string): void {
  const lines = filesUnder(releaseDir)
    .sort()
    .filter((file) => file !== "checksums.txt")
    .map((file) => `${sha256(path.join(releaseDir, file))}  ${file}`);
  fs.writeFileSync(path.join(releaseDir, "checksums.txt"), `${lines.join("\n")}\n`);
}

async function main(args: string[]): Promise<void> {
  const only = option(args, "--only")?.split(",");
  const unknown = only?.filter((part) => !(PARTS as readonly string[]).includes(part)) ?? [];
  if (unknown.length > 0) throw new Error(`--only: unknown part ${unknown.join(", ")}; the parts are ${PARTS.join(", ")}`);
  const context = contextFrom(args);
  const started = Date.now();
  try {
    if (only === undefined) fs.rmSync(context.releaseDir, { recursive: true, force: true });
    fs.mkdirSync(context.releaseDir, { recursive: true });
    context.say(`pulumi-etl ${context.version} into ${path.relative(process.cwd(), context.releaseDir) || "."}; plugin download URL ${context.pluginDownloadURL}`);
    // The SDKs are made for every run: the other parts package them.
    for (const name of PARTS.filter((part) => part === "sdks" || only === undefined || only.includes(part))) {
      const part: Part = require(`./${name}.cts`);
      const partStarted = Date.now();
      const files = await part.build(context);
      context.say(`${name}: ${files.join(", ")} (${((Date.now() - partStarted) / 1000).toFixed(1)} s)`);
    }
    writeChecksums(context.releaseDir);
    context.say(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    fs.rmSync(context.scratchDir, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`[dist] error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
