/** scripts/dist/tools.cts (types only, beside ./types for the parts that package SDKs). */
export interface ToolsModule {
  /** The interpreter of the cached environment holding pulumi, setuptools, wheel and build. */
  python(): string;
  /** Runs a program to its end and returns what it printed; fails with its output when it fails. */
  run(file: string, args: string[], options?: { cwd?: string; env?: Record<string, string>; input?: string }): string;
  /** SOURCE_DATE_EPOCH when set, else the time of the commit the release is made from. */
  releaseTime(repoRoot: string): Date;
}
