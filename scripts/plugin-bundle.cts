/**
 * `dist/provider/plugin/bundle.js`: the plugin and every module it loads in one CommonJS file,
 * which `bin/pulumi-resource-etl` runs. The engine starts the plugin afresh for every operation,
 * and a start spent about a fifth of its CPU finding and reading the three hundred files it
 * loads: from one file it is ready to serve with a fifth less (about 310 to 220–240 ms of CPU, warm compile cache). `@pulumi/pulumi`
 * and the program runtime (program-runtime.ts) stay apart, as only a component's Construct loads
 * them. The release's executables bundle the same way (scripts/dist/plugin.cts). Run by
 * `npm run build`.
 */
const path: typeof import("node:path") = require("node:path");
const { bundleOptions }: import("./dist/sea-types").SeaModule = require("./dist/sea.cts");

const PLUGIN_DIR = path.join(__dirname, "..", "dist", "provider", "plugin");

/** The program runtime's entry, and `@pulumi/pulumi` itself, which only a program's functions load (provider/context.ts). */
const PROGRAM_RUNTIME_APART: import("esbuild").Plugin = {
  name: "program-runtime-apart",
  setup(build) {
    build.onResolve({ filter: /^(\.\/program-runtime|@pulumi\/pulumi)$/ }, (args) => ({ path: args.path, external: true }));
  },
};

async function bundlePlugin(): Promise<void> {
  const esbuild: typeof import("esbuild") = require("esbuild");
  await esbuild.build({
    // Unlike the release's executable, which carries its code cache: readable stack traces.
    ...bundleOptions({ minify: false, plugins: [PROGRAM_RUNTIME_APART] }),
    entryPoints: [path.join(PLUGIN_DIR, "main.js")],
    outfile: path.join(PLUGIN_DIR, "bundle.js"),
  });
}

if (require.main === module) {
  bundlePlugin().catch((error: unknown) => {
    console.error(`plugin bundle: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}

module.exports = { PROGRAM_RUNTIME_APART };
