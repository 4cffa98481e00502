/**
 * The package's version, which the plugin reports as its own. Loaded with `require` so that a
 * bundle of the plugin (`npm run dist`) carries it inside.
 */
export function packageVersion(): string {
  // Compiled to dist/provider/plugin: the package's root is three folders up. `require` keeps what it loaded.
  return (require("../../../package.json") as { version: string }).version;
}
