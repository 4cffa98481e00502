/**
 * The SDKs of the plugin, made from its schema as built by Pulumi's own code generators
 * (`pulumi-etl-codegen`, which scripts/languages.sh builds): sdk/nodejs, sdk/python and sdk/go.
 * `npm run sdk` writes them and the schema they come from (schema.json at the repository's root);
 * a test makes them again into a scratch folder and compares. `npm run dist` makes them with the
 * release's plugin download address.
 */
const fs: typeof import("node:fs") = require("node:fs");
const path: typeof import("node:path") = require("node:path");
const { execFileSync }: typeof import("node:child_process") = require("node:child_process");

const REPO_ROOT = path.resolve(__dirname, "..");
const LANGUAGES = ["nodejs", "python", "go"] as const;
/** The Go SDK's module: the import path of its package, less the package's own folder. */
const GO_SDK_VERSION_OF_PULUMI = "v3.259.0";

function codegen(): string {
  const root = process.env.PULUMI_ETL_LANGUAGES_ROOT;
  if (!root) throw new Error("PULUMI_ETL_LANGUAGES_ROOT is not set: run through `npm run sdk`, or source scripts/setup.sh first");
  return path.join(root, "bin", "pulumi-etl-codegen");
}

function goModule(importPath: string): string {
  return `module ${path.posix.dirname(importPath)}\n\ngo 1.22\n\nrequire github.com/pulumi/pulumi/sdk/v3 ${GO_SDK_VERSION_OF_PULUMI}\n`;
}

/** The schema as the plugin reports it, in the form committed at the repository's root. */
function schemaText(options: import("../provider/plugin").SchemaOptions = {}): string {
  const plugin: typeof import("../provider/plugin") = require("pulumi-etl/plugin");
  return `${JSON.stringify(plugin.packageSchema(options), null, 2)}\n`;
}

/** Writes `outRoot/schema.json` and every SDK under `outRoot/<language>`, each folder emptied first. */
function generateSdks(outRoot: string, options: import("../provider/plugin").SchemaOptions = {}): void {
  const plugin: typeof import("../provider/plugin") = require("pulumi-etl/plugin");
  const schemaFile = path.join(outRoot, "schema.json");
  fs.mkdirSync(outRoot, { recursive: true });
  fs.writeFileSync(schemaFile, schemaText(options));
  for (const language of LANGUAGES) {
    execFileSync(codegen(), [schemaFile, language, path.join(outRoot, language)], { stdio: ["ignore", "inherit", "inherit"] });
  }
  fs.writeFileSync(path.join(outRoot, "go", "go.mod"), goModule(plugin.SDK_NAMES.go));
}

/** Every file under `root`, as paths relative to it. */
function filesUnder(root: string, dir = root): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(root, full) : [path.relative(root, full).split(path.sep).join("/")];
  });
}

/** `--out DIR` writes the SDKs elsewhere than sdk/ (the freshness test compares the two). */
function outputRoot(args: string[]): string {
  const at = args.indexOf("--out");
  return at === -1 ? path.join(REPO_ROOT, "sdk") : path.resolve(args[at + 1] ?? "");
}

module.exports = { generateSdks, schemaText, filesUnder, LANGUAGES };

if (require.main === module) {
  const root = outputRoot(process.argv.slice(2));
  generateSdks(root);
  // Committed at the repository's root, as providers publish it; the SDKs stay under sdk/.
  if (root === path.join(REPO_ROOT, "sdk")) fs.renameSync(path.join(root, "schema.json"), path.join(REPO_ROOT, "schema.json"));
  for (const language of LANGUAGES)
    console.log(`[sdk] ${path.relative(process.cwd(), path.join(root, language))}: ${filesUnder(path.join(root, language)).length} files`);
}
