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

/** The names the plugin asks its executable for (provider/plugin/release-assets.ts, built into dist). */
function assetNames(context: DistContext): { PLUGIN_ASSET: string; PROGRAM_RUNTIME_ASSET: string } {
  return require(path.join(context.repoRoot, "dist", "provider", "plugin", "release-assets.js"));
}

/**
 * Three CommonJS files: the start (start.ts), which runs the plugin with the code V8 compiled for
 * it at an earlier start; the plugin with every module it loads; and apart from it
 * `@pulumi/pulumi`'s program runtime (program-runtime.ts), which only a component's Construct
 * loads: most of the bytes, kept out of the file every start parses.
 */
async function build(context: DistContext): Promise<string[]> {
  const plugin = path.join(context.repoRoot, "dist", "provider", "plugin");
  const { PLUGIN_ASSET, PROGRAM_RUNTIME_ASSET } = assetNames(context);
  const start = await bundle(path.join(plugin, "start.js"), "start.cjs", context);
  const main = await bundle(path.join(plugin, "main.js"), PLUGIN_ASSET, context, { plugins: [PROGRAM_RUNTIME_APART] });
  const runtime = await bundle(path.join(plugin, "program-runtime.js"), PROGRAM_RUNTIME_ASSET, context);
  return archiveExecutables({ name: EXECUTABLE, main: start, assets: { [PLUGIN_ASSET]: main, [PROGRAM_RUNTIME_ASSET]: runtime } }, context);
}

module.exports = { build };
