/**
 * What the package's commands (`etl-export`, `etl-recover`) share: flags parsed strictly, an API
 * key refused on the command line (it would show in the shell's history and the process list),
 * and failures a user can act on said in one line, with the usage after a wrong flag.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { requireSupportedNode } from "../contract/node-version";
import { UserFacingError } from "./errors";

export class UsageError extends UserFacingError {}

/** The flags every command takes: where the service is, a run that changes nothing, and help. */
export const COMMON_FLAGS = {
  "dry-run": { type: "boolean", default: false },
  "api-url": { type: "string" },
  "account-id": { type: "string" },
  help: { type: "boolean", default: false },
} as const;

/** The flags' values; `keyFrom` says where the API key is taken from instead. */
export function parseFlags<O extends NonNullable<ParseArgsConfig["options"]>>(argv: string[], options: O, keyFrom: string) {
  if (argv.some((arg) => arg === "--api-key" || arg.startsWith("--api-key="))) {
    throw new UsageError(`--api-key is not taken: a key on the command line shows in the shell's history and the process list; set ${keyFrom}`);
  }
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * Runs a command's main, on a Node.js the package supports only: a user's error is one line (and
 * the usage after a wrong flag), anything else keeps its stack; either exits with `failureCode`
 * (a command whose findings exit 1 keeps 2 for its errors).
 */
export function runCommand(name: string, usage: string, main: (argv: string[]) => Promise<void>, failureCode = 1): void {
  requireSupportedNode(name);
  main(process.argv.slice(2)).catch((error: unknown) => {
    if (error instanceof UserFacingError) {
      console.error(`${name}: ${error.message}`);
      if (error instanceof UsageError) console.error(usage);
    } else {
      console.error(error);
    }
    process.exitCode = failureCode;
  });
}
