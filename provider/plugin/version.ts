/** The package's version, which the plugin reports as its own. */
import { readFileSync } from "node:fs";
import * as path from "node:path";

let version: string | undefined;

export function packageVersion(): string {
  // Compiled to dist/provider/plugin: the package's root is three folders up.
  version ??= (JSON.parse(readFileSync(path.resolve(__dirname, "../../../package.json"), "utf8")) as { version: string }).version;
  return version;
}
