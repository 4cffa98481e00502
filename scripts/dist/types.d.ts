/** The shapes the release's scripts share (types only: each script is plain CommonJS). */

export type Language = "nodejs" | "python" | "go";

export interface DistContext {
  repoRoot: string;
  /** The release folder (ignored by git), emptied at the start of `npm run dist`. */
  releaseDir: string;
  /** package.json's version, stamped into every artifact. */
  version: string;
  /** The folder holding `pulumi-resource-etl-v<version>-<os>-<arch>.tar.gz`, as the SDKs carry it. */
  pluginDownloadURL: string;
  /** A scratch folder for this run, removed at its end. */
  scratchDir: string;
  /** Prints one progress line. */
  say(line: string): void;
}

/** scripts/dist/context.cts */
export interface ContextModule {
  REPO_ROOT: string;
  packageVersion(repoRoot?: string): string;
  sha256(file: string): string;
  /** Where the `sdks` part wrote a language's SDK, made with the release's schema. */
  sdkDir(context: DistContext, language: Language): string;
}

/** scripts/dist/readme.cts */
export interface ReadmeModule {
  /**
   * Writes the README `from` into `toFolder`, each relative link (read from the repository's
   * `folder`) made the repository's address of that file at tag `v<version>`.
   */
  shipReadme(from: string, toFolder: string, options: { repoRoot: string; folder: string; version: string }): void;
}

/** Each part, scripts/dist/<part>.cts. */
export interface Part {
  /** Writes the part's artifacts into the release folder; returns their paths relative to it. */
  build(context: DistContext): string[] | Promise<string[]>;
}
