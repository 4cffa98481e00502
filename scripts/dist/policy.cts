/**
 * The policy pack's archives, `pulumi-policy-etl-v<version>-<os>-<arch>.tar.gz`, each holding one
 * executable, `pulumi-policy-etl`, that `pulumi preview --policy-pack <path of it>` starts as the
 * analyzer: the pack's compiled rules (policy/bin) with @pulumi/policy's analyzer server, on a
 * machine with no Node.js (sea.cts). It is what policy/analyzer starts through `node`.
 */
const fs: typeof import("node:fs") = require("node:fs");
const path: typeof import("node:path") = require("node:path");
const { bundle, archiveExecutables }: import("./sea-types").SeaModule = require("./sea.cts");
type DistContext = import("./types").DistContext;

const EXECUTABLE = "pulumi-policy-etl";

/** How @pulumi/policy's PolicyPack reads the pack's version: from a package.json in the folder it runs in. */
const VERSION_READ = "require(`${cwd}/package.json`)";

/**
 * The engine starts an executable pack in the program's folder, where no package.json of the pack
 * is: the version the pack's package.json gives is written into the bundle in its place.
 */
function packVersionInBundle(version: string): import("esbuild").Plugin {
  return {
    name: "pack-version",
    setup(build) {
      build.onLoad({ filter: /[\\/]@pulumi[\\/]policy[\\/]policy\.js$/ }, (args) => {
        const source = fs.readFileSync(args.path, "utf8");
        if (source.split(VERSION_READ).length !== 2) throw new Error(`${args.path} no longer reads the pack's version with ${VERSION_READ}`);
        return { contents: source.replace(VERSION_READ, JSON.stringify({ version })), loader: "js" };
      });
    },
  };
}

async function build(context: DistContext): Promise<string[]> {
  const pack = path.join(context.repoRoot, "policy");
  const entry = path.join(pack, "bin", "index.js");
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: the policy pack is compiled by \`npm run build\``);
  const { version } = JSON.parse(fs.readFileSync(path.join(pack, "package.json"), "utf8")) as { version: string };
  const main = await bundle(entry, "policy.cjs", context, { plugins: [packVersionInBundle(version)] });
  return archiveExecutables({ name: EXECUTABLE, main }, context);
}

module.exports = { build };
