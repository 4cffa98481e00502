/**
 * A function's context: in a program, the stack's `etl:*` configuration (secrets arrive
 * decrypted; ETL_* environment variables outside a program); served by the plugin, the settings
 * of the provider it was invoked on.
 */
import { configuredBy, processResources, type OperationContext } from "../context";

export type FunctionContext = Pick<OperationContext, "request" | "settings">;

export interface ProgramFunction<Args extends unknown[], Result> {
  (...args: Args): Promise<Result>;
  /** The same function with a provider's own context (the plugin's Invoke). */
  withContext(ctx: FunctionContext, ...args: Args): Promise<Result>;
}

// A cache: one client per configuration for the program's process.
const programProcess = processResources();

/**
 * A stack setting as the program's runtime reads it. Required here, in a program only: the
 * plugin, which takes its settings from the engine, never loads the program runtime.
 */
function programSetting(key: string): string | undefined {
  const pulumi: typeof import("@pulumi/pulumi") = require("@pulumi/pulumi");
  return pulumi.runtime.getConfig(key);
}

/** Read anew each call: the stack's configuration is the program's to change between calls. */
function programContext(): FunctionContext {
  return configuredBy(programSetting, programProcess, false)();
}

/** A function for programs, run with the stack's configuration, and with a given context as `withContext`. */
export function programFunction<Args extends unknown[], Result>(body: (ctx: FunctionContext, ...args: Args) => Promise<Result>): ProgramFunction<Args, Result> {
  const run = async (...args: Args) => body(programContext(), ...args);
  return Object.assign(run, { withContext: body });
}
