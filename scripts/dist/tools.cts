/**
 * What the Python and Go parts of a release both use: the programs they run (the cached Python
 * environment that scripts/languages.sh makes, Go) and the one time stamped into their archives,
 * so that the same commit gives the same bytes.
 */
const path: typeof import("node:path") = require("node:path");
const { execFileSync }: typeof import("node:child_process") = require("node:child_process");

/** The interpreter of the cached environment holding pulumi, setuptools, wheel and build. */
function python(): string {
  const root = process.env.PULUMI_ETL_LANGUAGES_ROOT;
  if (!root) throw new Error("PULUMI_ETL_LANGUAGES_ROOT is not set: run through `npm run dist`, or source scripts/setup.sh first");
  return path.join(root, "python", "bin", "python");
}

interface RunOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Text for the program's standard input. */
  input?: string;
}

/** Runs a program to its end and returns what it printed; fails with its output when it fails. */
function run(file: string, args: string[], options: RunOptions = {}): string {
  try {
    return execFileSync(file, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, input: options.input, encoding: "utf8", stdio: "pipe" });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${path.basename(file)} ${args.join(" ")} failed:\n${failed.stderr || failed.stdout || failed.message}`);
  }
}

/**
 * The release's time: SOURCE_DATE_EPOCH when set (the reproducible-builds convention), else the
 * time of the commit it is made from.
 */
function releaseTime(repoRoot: string): Date {
  const epoch = process.env.SOURCE_DATE_EPOCH ?? run("git", ["log", "-1", "--format=%ct"], { cwd: repoRoot }).trim();
  const seconds = Number(epoch);
  if (!Number.isInteger(seconds) || seconds <= 0) throw new Error(`the release time ${JSON.stringify(epoch)} is not a number of seconds since 1970`);
  return new Date(seconds * 1000);
}

const exported: import("./tools-types").ToolsModule = { python, run, releaseTime };
module.exports = exported;
