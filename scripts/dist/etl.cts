/**
 * The tools' archives, `etl-v<version>-<os>-<arch>.tar.gz`, each holding the executable `etl`
 * (etl-main.cts): `etl export`, `etl coverage`, `etl recover` and `etl emulator`, the package's commands, on a
 * machine with no Node.js (sea.cts).
 */
const path: typeof import("node:path") = require("node:path");
const { bundle, archiveExecutables }: import("./sea-types").SeaModule = require("./sea.cts");
type DistContext = import("./types").DistContext;

async function build(context: DistContext): Promise<string[]> {
  const main = await bundle(path.join(__dirname, "etl-main.cts"), "etl.cjs", context);
  return archiveExecutables({ name: "etl", main }, context);
}

module.exports = { build };
