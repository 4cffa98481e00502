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
  fs.copyFileSync(path.join(source, "README.md"), path.join(compiled, "README.md"));
  return compiled;
}

function build(context: DistContext): string[] {
  return [pack(context.repoRoot, context), pack(compiledSdk(context), context)];
}

module.exports = { build };
