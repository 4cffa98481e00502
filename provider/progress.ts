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

interface RequestScope {
  urn: string;
  /** What the engine's status line says before each status, e.g. `creating`. */
  operation: string;
}

const scope = new AsyncLocalStorage<RequestScope>();
let engine: EngineLog | undefined;

export function useEngineLog(log: EngineLog | undefined): void {
  engine = log;
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

/** Runs one request's work knowing its resource, so what it reports lands on that resource's row. */
export function withinRequest<T>(urn: string | undefined, operation: string, work: () => T): T {
  if (!urn) return work();
  return scope.run({ urn, operation }, work);
}

/** A passing status on the resource's row; replaced by the next one, gone when the step ends. */
export function reportStatus(message: string): void {
  send("info", message, true);
}

/** A message that stays with the resource after the step. */
export function reportNote(message: string, severity: Severity = "info"): void {
  send(severity, message, false);
}

function send(severity: Severity, message: string, ephemeral: boolean): void {
  const current = scope.getStore();
  if (engine === undefined || current === undefined) {
    console.log(message);
    return;
  }
  const text = ephemeral ? `${current.operation}: ${message}` : message;
  // A lost status line must never fail the operation it describes.
  engine.log(current.urn, severity, text, ephemeral).catch(() => undefined);
}
