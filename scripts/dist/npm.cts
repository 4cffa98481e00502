/**
 * The npm packages as the registry would serve them: `pulumi-etl` (the dynamic resources,
 * `etl-emulator`, `etl-export`, `etl-coverage`, `etl-recover`) packed from the compiled package, and the
 * TypeScript SDK `@pulumi-etl/sdk`, compiled from the release's generation of it. Each depends on
 * the others by version range only, so npm installs one `@pulumi/pulumi` for both.
 */
const fs: typeof import("node:fs") = require("node:fs");
const path: typeof import("node:path") = require("node:path");
const { execFileSync }: typeof import("node:child_process") = require("node:child_process");
const { sdkDir }: import("./types").ContextModule = require("./context.cts");
const { shipReadme }: import("./types").ReadmeModule = require("./readme.cts");
type DistContext = import("./types").DistContext;

/** `npm pack` of `folder` into the release folder; returns the tarball's name. */
function pack(folder: string, context: DistContext): string {
  const output = execFileSync("npm", ["pack", folder, "--json", "--pack-destination", context.releaseDir], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const [packed] = JSON.parse(output) as Array<{ filename: string; version: string }>;
  if (packed?.version !== context.version) throw new Error(`${folder} packed as version ${packed?.version}, not ${context.version}`);
  return packed.filename;
}

/** The SDK compiled as `npm run build:sdk` compiles the committed one, with its package.json beside the code. */
function compiledSdk(context: DistContext): string {
  const source = sdkDir(context, "nodejs");
  const tsc = require.resolve("typescript/bin/tsc", { paths: [context.repoRoot] });
  execFileSync(process.execPath, [tsc, "-p", path.join(source, "tsconfig.json")], { stdio: "inherit" });
  const compiled = path.join(source, "bin");
  fs.copyFileSync(path.join(source, "package.json"), path.join(compiled, "package.json"));
  shipReadme(path.join(source, "README.md"), compiled, { repoRoot: context.repoRoot, folder: "sdk/nodejs", version: context.version });
  return compiled;
}

/** TypeScript's record of the last compile (scripts/build.sh keeps it beside dist/'s outputs) is the build's, not the package's. */
const isShipped = (file: string) => path.basename(file) !== ".tsbuildinfo";

/**
 * The package as package.json's `files` lists it, copied apart so that its README, whose links
 * lead to docs/ and examples/ the package does not hold, can ship with them made absolute.
 */
function stagedPackage(context: DistContext): string {
  const staged = path.join(context.scratchDir, "npm-package");
  const { files } = JSON.parse(fs.readFileSync(path.join(context.repoRoot, "package.json"), "utf8")) as { files: string[] };
  fs.mkdirSync(staged, { recursive: true });
  for (const entry of ["package.json", ...files.filter((file) => file !== "README.md")]) {
    fs.cpSync(path.join(context.repoRoot, entry), path.join(staged, entry), { recursive: true, filter: isShipped });
  }
  shipReadme(path.join(context.repoRoot, "README.md"), staged, { repoRoot: context.repoRoot, folder: "", version: context.version });
  return staged;
}

function build(context: DistContext): string[] {
  return [pack(stagedPackage(context), context), pack(compiledSdk(context), context)];
}

module.exports = { build };
