/**
 * The Automation API's `up`, `refresh` and `destroy` run the CLI again after each operation that
 * succeeds: twice for the stack's outputs (masked, then plain) after `up`, once for the summary
 * of the last update after each. Every start of the CLI costs about a quarter of a second of CPU,
 * most of it the engine's own initialization, and most tests read neither. For the stacks of the
 * tests, they are fetched when first read, by the same commands.
 *
 * A result read after the stack's next operation could say what that operation did, not its
 * own: reading it then fails the test, naming the rule, rather than answer wrongly. The results,
 * and `exportStack`, are read from the stack's file backend where it can say (stack-files.ts).
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { type Deployment, type LocalWorkspace, type OutputMap, Stack, type UpdateSummary } from "@pulumi/pulumi/automation";
import { type DataKeys, readStackFiles, type StackReading } from "./stack-files";

/** The operations whose results are fetched when read. */
const DEFERRED = ["up", "refresh", "destroy"] as const;
type Operation = (typeof DEFERRED)[number];
/** Operations that change the stack's outputs or history, so earlier results can no longer be fetched. */
const CHANGING: ReadonlyArray<Operation | "importStack" | "import"> = [...DEFERRED, "importStack", "import"];
const isDeferred = (name: string): name is Operation => (DEFERRED as readonly string[]).includes(name);

interface Retirable {
  retired: boolean;
}

/**
 * Makes `stack`'s `up`, `refresh` and `destroy` fetch their results' `outputs` and `summary` when
 * read, and its `exportStack` read the state file; `backend` is the folder of its file backend.
 */
export function deferOperationResults(stack: Stack, backend: string): void {
  let current: Retirable[] = [];
  const cli = cliOf(stack);
  const keys: DataKeys = new Map();
  Object.defineProperty(stack, "exportStack", {
    value: async () => ((await readStackFiles(backend, stack.name, keys))?.exported() as Deployment | undefined) ?? Stack.prototype.exportStack.call(stack),
  });
  // Stack's own methods, run with `this` on an object whose `outputs` and `info` fetch nothing.
  const quiet = Object.create(stack, {
    outputs: { value: async () => undefined },
    info: { value: async () => undefined },
  }) as Stack;
  for (const name of CHANGING) {
    const original = Stack.prototype[name] as (this: Stack, ...args: unknown[]) => Promise<unknown>;
    Object.defineProperty(stack, name, {
      value: async (...args: unknown[]) => {
        for (const result of current) result.retired = true;
        current = [];
        if (!isDeferred(name)) return original.apply(stack, args);
        const result = await original.apply(quiet, args);
        const showSecrets = (args[0] as { showSecrets?: boolean } | undefined)?.showSecrets === true;
        const lazy = lazyResult(result as object, name, cli, showSecrets, await readStackFiles(backend, stack.name, keys));
        current.push(lazy);
        return lazy.result;
      },
    });
  }
}

function lazyResult(result: object, operation: Operation, cli: (args: string[]) => string, showSecrets: boolean, files: StackReading | undefined) {
  const state: Retirable & { result: object } = { retired: false, result };
  const once = <T>(field: string, fetch: () => T) => {
    let fetched: { value: T } | undefined;
    Object.defineProperty(result, field, {
      enumerable: true,
      get: () => {
        if (fetched !== undefined) return fetched.value;
        if (state.retired) {
          throw new Error(
            `the ${field} of a ${operation} are fetched when first read, and this one was first read after the stack's next operation: read it before`,
          );
        }
        fetched = { value: fetch() };
        return fetched.value;
      },
    });
  };
  once("summary", () => files?.lastUpdate(showSecrets) ?? lastUpdate(cli, showSecrets));
  if (operation === "up") once("outputs", () => files?.outputs() ?? outputsOf(cli));
  return state;
}

/** What `Stack.runPulumiCmd` would run, synchronously. */
function cliOf(stack: Stack): (args: string[]) => string {
  const workspace = stack.workspace as LocalWorkspace;
  const command = workspace.pulumiCommand.command;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PULUMI_DEBUG_COMMANDS: "true",
    ...(workspace.pulumiHome ? { PULUMI_HOME: workspace.pulumiHome } : {}),
    ...workspace.envVars,
    PULUMI_AUTOMATION_API: "true",
  };
  if (path.isAbsolute(command)) env.PATH = `${path.dirname(command)}${path.delimiter}${workspace.envVars.PATH ?? process.env.PATH ?? ""}`;
  return (args) =>
    execFileSync(command, [...args, "--stack", stack.name, "--non-interactive"], {
      cwd: workspace.workDir,
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 1 << 30,
    });
}

/** As `Stack.info`: the newest entry of the stack's history. */
function lastUpdate(cli: (args: string[]) => string, showSecrets: boolean): UpdateSummary | undefined {
  const args = ["stack", "history", "--json", "--page-size", "1", "--page", "1", ...(showSecrets ? ["--show-secrets"] : [])];
  const history = JSON.parse(cli(args), (key, value) => (key === "startTime" || key === "endTime" ? new Date(value) : value)) as UpdateSummary[];
  return history[0];
}

/**
 * As `LocalWorkspace.stackOutputs`: the plain values, each marked secret where the masked listing
 * hides it; that listing is fetched only when a test asks whether an output is secret.
 */
function outputsOf(cli: (args: string[]) => string): OutputMap {
  const plain = JSON.parse(cli(["stack", "output", "--json", "--show-secrets"])) as Record<string, unknown>;
  let masked: Record<string, unknown> | undefined;
  const isSecret = (key: string) => (masked ??= JSON.parse(cli(["stack", "output", "--json"])) as Record<string, unknown>)[key] === "[secret]";
  return Object.fromEntries(
    Object.entries(plain).map(([key, value]) => [key, Object.defineProperty({ value }, "secret", { enumerable: true, get: () => isSecret(key) })]),
  ) as OutputMap;
}
