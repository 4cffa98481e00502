/**
 * What the release's executable carries beside its start (scripts/dist/plugin.cts writes it): the
 * plugin's bundle, which start.ts runs, and the program runtime's, which construct.ts loads at a
 * component's first Construct. From a checkout or the npm package, both are files instead.
 */

export const PLUGIN_ASSET = "plugin.cjs";
export const PROGRAM_RUNTIME_ASSET = "program-runtime.cjs";

export interface ReleaseAssets {
  getAsset(key: string, encoding: "utf8"): string;
  getAsset(key: string): ArrayBuffer;
}

/** The assets of the release's executable, when this process is one (a single-executable application). */
export function releaseAssets(): ReleaseAssets | undefined {
  try {
    const sea = require("node:sea") as ReleaseAssets & { isSea(): boolean };
    return sea.isSea() ? sea : undefined;
  } catch {
    return undefined;
  }
}
