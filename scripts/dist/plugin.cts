/**
 * The plugin archives, `pulumi-resource-etl-v<version>-<os>-<arch>.tar.gz`, each holding one
 * executable that needs nothing on the machine: the plugin's compiled code as a single-executable
 * application (sea.cts).
 */
const path: typeof import("node:path") = require("node:path");
const { bundle, archiveExecutables }: import("./sea-types").SeaModule = require("./sea.cts");
/** `@pulumi/pulumi` and the program runtime kept out of the plugin's bundle, as `npm run build`'s bundle keeps them. */
const { PROGRAM_RUNTIME_APART }: { PROGRAM_RUNTIME_APART: import("esbuild").Plugin } = require("../plugin-bundle.cts");
type DistContext = import("./types").DistContext;

const EXECUTABLE = "pulumi-resource-etl";

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
async function build(context: DistContext): Promise<string[]> {
  const plugin = path.join(context.repoRoot, "dist", "provider", "plugin");
  const asset = programRuntimeAsset(context);
  const main = await bundle(path.join(plugin, "main.js"), "plugin.cjs", context, { plugins: [PROGRAM_RUNTIME_APART] });
  const runtime = await bundle(path.join(plugin, "program-runtime.js"), asset, context);
  return archiveExecutables({ name: EXECUTABLE, main, assets: { [asset]: runtime } }, context);
}

module.exports = { build };
