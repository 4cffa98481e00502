/**
 * Where an operation's words go. A status (`creating: cluster 202 pending`) is ephemeral and
 * shows on the resource's own row while `pulumi up` runs; a note (a warning, an object kept) stays
 * in that resource's diagnostics. Both reach the engine through its `Log` call with the URN of
 * the request being served, which each provider process learns per request (`withinRequest`).
 *
 * Without an engine to talk to (a program's process, a unit test), a line goes to stdout, which
 * the dynamic-provider host turns into a diagnostic on the stack.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export type Severity = "info" | "warning";

/** How lines reach the engine: set once by the process that serves requests. */
export interface EngineLog {
  log(urn: string, severity: Severity, message: string, ephemeral: boolean): Promise<void>;
}

/** What an operation says while it runs. */
export interface Reporter {
  /** A passing status on the resource's row; replaced by the next one, gone when the step ends. */
  status(message: string): void;
  /** A message that stays with the resource after the step. */
  note(message: string, severity?: Severity): void;
  /** The URN of the resource whose request is being served, where the process knows it. */
  readonly urn?: () => string | undefined;
}

/** One process's way to the engine's log, and the request each line belongs to. */
export interface Progress {
  useEngineLog(log: EngineLog | undefined): void;
  /** Runs one request's work knowing its resource, so what it reports lands on that resource's row. */
  withinRequest<T>(urn: string | undefined, operation: string, work: () => T): T;
  readonly reporter: Reporter;
}

interface RequestScope {
  urn: string;
  /** What the engine's status line says before each status, e.g. `creating`. */
  operation: string;
}

/** Lines to stdout: where a process without an engine to talk to says them. */
export const STDOUT_REPORTER: Reporter = Object.freeze({
  status: (message: string) => console.log(message),
  note: (message: string) => console.log(message),
});

export function createProgress(): Progress {
  const scope = new AsyncLocalStorage<RequestScope>();
  let engine: EngineLog | undefined;
  const send = (severity: Severity, message: string, ephemeral: boolean): void => {
    const current = scope.getStore();
    if (engine === undefined || current === undefined) {
      console.log(message);
      return;
    }
    const text = ephemeral ? `${current.operation}: ${message}` : message;
    // A lost status line must never fail the operation it describes.
    engine.log(current.urn, severity, text, ephemeral).catch(() => undefined);
  };
  return {
    useEngineLog(log) {
      engine = log;
    },
    withinRequest(urn, operation, work) {
      if (!urn) return work();
      return scope.run({ urn, operation }, work);
    },
    reporter: {
      status: (message) => send("info", message, true),
      note: (message, severity = "info") => send(severity, message, false),
      urn: () => scope.getStore()?.urn,
    },
  };
}

const OPERATIONS: Record<string, string> = {
  Check: "checking",
  Diff: "comparing",
  Create: "creating",
  Read: "reading",
  Update: "updating",
  Delete: "deleting",
};

/** What a provider call (`/pulumirpc.ResourceProvider/Create`, or `Create`) is doing, in words. */
export function operationOf(method: string): string {
  const name = method.slice(method.lastIndexOf("/") + 1);
  return OPERATIONS[name] ?? name.toLowerCase();
}
