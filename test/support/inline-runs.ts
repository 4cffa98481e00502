/**
 * Inline programs run in the test's own process, under the Automation API's language server. The
 * engine's operation can end before its program does: the engine stops a preview at its first
 * invalid resource, or is stopped under its program, and the CLI exits while the program still
 * awaits its calls to that engine. @pulumi/pulumi keeps a run's state process-wide (its handlers
 * of uncaught errors on `process`, the stack resource, the engine's clients): a program still
 * going when the next operation's program starts shares it with that one, whose run then fails
 * with the late errors of the first (`14 UNAVAILABLE` from an engine already gone), or registers
 * nothing; a late error after every run has ended fails no run but the test file.
 *
 * So an operation of an inline program here starts when no program is running in the process,
 * and ends when its program has ended too: one program at a time, each with its own engine.
 */
import { createRequire } from "node:module";
import { Stack } from "@pulumi/pulumi/automation";

/** How long a program may go on after its operation ended before the operation fails, naming this. */
const PROGRAM_END_MS = 60_000;

/** The operations that run the program, inline. */
const RUNNING_THE_PROGRAM = ["preview", "up", "refresh", "destroy"] as const;

interface LanguageServerClass {
  prototype: { run(call: unknown, callback: unknown): Promise<void> };
}

const running = new Set<Promise<void>>();
let tracking = false;

/**
 * Counts the programs running in this process: each `Run` the engine asks of a language server
 * of the Automation API, from its start to the end of the program (the promise `run` returns
 * settles after the program, its last calls to the engine and its reply).
 */
function trackPrograms(): void {
  tracking = true;
  // The module the Automation API's stacks start their language servers from (not among its
  // declared exports): the same instance, through Node's own require.
  const { LanguageServer } = createRequire(__filename)("@pulumi/pulumi/automation/server") as { LanguageServer: LanguageServerClass };
  const run = LanguageServer.prototype.run;
  LanguageServer.prototype.run = function (this: unknown, call: unknown, callback: unknown) {
    const ended = run.call(this, call, callback);
    const settled = ended.then(
      () => undefined,
      () => undefined,
    );
    running.add(settled);
    void settled.then(() => running.delete(settled));
    return ended;
  };
}

/** Resolves once no program runs in this process; fails if one goes on for PROGRAM_END_MS. */
async function programsEnded(): Promise<void> {
  const deadline = Date.now() + PROGRAM_END_MS;
  while (running.size > 0) {
    const left = deadline - Date.now();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timed out">((resolve) => (timer = setTimeout(() => resolve("timed out"), Math.max(left, 0))));
    const outcome = await Promise.race([Promise.all(running), timedOut]);
    clearTimeout(timer);
    if (outcome === "timed out") throw new Error(`an inline program was still running ${PROGRAM_END_MS / 1000} s after its engine's operation had ended`);
  }
}

/**
 * Makes every stack's operations that can run an inline program start and end with no program
 * running in the process (a stack of a project folder waits for none: none of its runs here).
 */
export function runInlineProgramsOneAtATime(): void {
  if (tracking) return;
  trackPrograms();
  for (const name of RUNNING_THE_PROGRAM) {
    const operation = Stack.prototype[name] as (this: Stack, ...args: unknown[]) => Promise<unknown>;
    Object.defineProperty(Stack.prototype, name, {
      configurable: true,
      writable: true,
      value: async function (this: Stack, ...args: unknown[]) {
        await programsEnded();
        const outcome = await operation.apply(this, args).then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        );
        await programsEnded();
        if ("error" in outcome) throw outcome.error;
        return outcome.value;
      },
    });
  }
}
