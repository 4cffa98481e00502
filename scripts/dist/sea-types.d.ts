/** scripts/dist/sea.cts (types only). */
import type { BuildOptions } from "esbuild";
import type { DistContext } from "./types";

/** One executable of the release: its name, and the bundles it carries. */
export interface SeaExecutable {
  /** The executable's file name, and its archives' name before `-v<version>-<os>-<arch>.tar.gz`. */
  name: string;
  /** The bundle the executable runs. */
  main: string;
  /** More bundles it carries, by the name `node:sea`'s getAsset reads them with. */
  assets?: Record<string, string>;
}

export interface SeaModule {
  /** esbuild's options every executable's bundle is made with (minified), with `extra`'s. */
  bundleOptions(extra: BuildOptions): BuildOptions;
  /** One CommonJS file of `entry` and every module it loads, named `name` in the scratch folder; `extra` adds to the shared esbuild options. */
  bundle(entry: string, name: string, context: DistContext, extra?: BuildOptions): Promise<string>;
  /** The executable for every platform, each archived into the release folder; returns the archives' names. */
  archiveExecutables(executable: SeaExecutable, context: DistContext): Promise<string[]>;
  /** Every platform's Node.js binary, fetched into the machine's cache where it is missing. */
  fetchNodeBinaries(): void;
}
