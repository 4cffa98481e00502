/**
 * Stopping waits when a deployment is cancelled, so Ctrl-C in a terminal or a CI runner's
 * SIGINT/SIGTERM ends `pulumi up` within seconds and every object made so far stays in state.
 * Each provider process makes one cancellation (ProcessResources); operations see its signal
 * through their context.
 *
 * How a cancellation reaches a dynamic provider's process with this engine:
 * - The first SIGINT/SIGTERM of the CLI makes the engine send the `Cancel` RPC to every
 *   provider. The dynamic-provider host answers it without telling the provider object, so the
 *   call is observed where the host's gRPC server looks up its handler.
 * - Plugins run in their own process group, so a terminal's Ctrl-C does not reach this process;
 *   the engine interrupts it (SIGINT) when it shuts plugins down, and a runner may signal it.
 * - The CLI holds the write end of this process's stdin: end of input means the CLI is gone
 *   (SIGKILL, a killed runner), and nothing this process does can reach the state any more.
 */
import * as fs from "node:fs";
import { engineLogAt, isEngineAddress } from "./engine-log";
import { operationOf, type Progress } from "./progress";

export interface ProcessCancellation {
  /** Aborted once the deployment is cancelled, with an Error saying why; waits and retries watch it. */
  readonly signal: AbortSignal;
  cancel(reason: string): void;
  /** Counts an operation in flight, so a signal lets it report its object before the process ends. */
  tracked<T>(operation: () => Promise<T>): Promise<T>;
  /** Hooks the ways in for a process serving an engine; only the first call installs. */
  installHooks(options: HookOptions): void;
}

export interface HookOptions {
  /** The engine's address (`host:port`), whose `Log` the progress then uses. */
  engine: string | undefined;
  progress: Progress;
  /** The dynamic-provider host: its Cancel call is seen, and its calls run within their URN. */
  hostCalls: boolean;
}

/** The cancellation's cause in words ("the deployment was cancelled"), or undefined while not cancelled. */
export function cancelledBecause(signal: AbortSignal): string | undefined {
  if (!signal.aborted) return undefined;
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : "the deployment was cancelled";
}

/** A signal for work that runs to its end (a program's functions): nothing aborts it. */
export function neverCancelled(): AbortSignal {
  return new AbortController().signal;
}

export function createCancellation(): ProcessCancellation {
  const controller = new AbortController();
  let inFlight = 0;
  let installed = false;
  const cancel = (reason: string) => {
    if (!controller.signal.aborted) controller.abort(new Error(reason));
  };
  return {
    signal: controller.signal,
    cancel,
    async tracked(operation) {
      inFlight++;
      try {
        return await operation();
      } finally {
        inFlight--;
      }
    },
    installHooks({ engine, progress, hostCalls }) {
      if (installed) return;
      installed = true;
      if (hostCalls) watchHostCalls(cancel, progress);
      if (isEngineAddress(engine)) progress.useEngineLog(engineLogAt(engine));
      for (const name of ["SIGINT", "SIGTERM"] as const) process.on(name, () => onSignal(name, cancel, () => inFlight));
      watchForCliExit(cancel);
    },
  };
}

/** Whether this process is the dynamic-provider host; a program's process has its own signal handling and stdin. */
export function isDynamicProviderHost(): boolean {
  return /[\\/]cmd[\\/]dynamic-provider[\\/]index\.js$/.test(require.main?.filename ?? "");
}

const CANCEL_PATH = "/pulumirpc.ResourceProvider/Cancel";

interface HostHandler {
  func?: (call: { request?: { getUrn?: () => string } }, ...rest: unknown[]) => unknown;
}

interface GrpcServerPrototype {
  _retrieveHandler?: (this: unknown, path: string) => HostHandler | null | undefined;
}

/**
 * Wraps the handler lookup of the host's own gRPC module: a Cancel call cancels, and every other
 * call runs knowing its resource's URN, so its progress lands on that resource's row. Without the
 * hook, signals still work and progress goes to the stack.
 */
function watchHostCalls(cancel: (reason: string) => void, progress: Progress): void {
  let grpc: { Server?: { prototype: GrpcServerPrototype } };
  try {
    grpc = require.main!.require("@grpc/grpc-js") as typeof grpc;
  } catch {
    return;
  }
  const prototype = grpc.Server?.prototype;
  const lookup = prototype?._retrieveHandler;
  if (prototype === undefined || typeof lookup !== "function") return;
  prototype._retrieveHandler = function (this: unknown, path: string) {
    if (path === CANCEL_PATH) cancel("the deployment was cancelled");
    const handler = lookup.call(this, path);
    const func = handler?.func;
    if (handler == null || typeof func !== "function") return handler;
    const operation = operationOf(path);
    return {
      ...handler,
      func: (call: Parameters<typeof func>[0], ...rest: unknown[]) => progress.withinRequest(call?.request?.getUrn?.(), operation, () => func(call, ...rest)),
    };
  };
}

/** Longest time a signal leaves operations in flight to report their objects. */
const REPORT_GRACE_MS = 3_000;

function onSignal(signal: string, cancel: (reason: string) => void, inFlight: () => number): void {
  cancel(`the provider process received ${signal}`);
  if (inFlight() === 0) process.exit(0);
  const poll = setInterval(() => inFlight() === 0 && process.exit(0), 50);
  poll.unref();
  setTimeout(() => process.exit(0), REPORT_GRACE_MS).unref();
}

function watchForCliExit(cancel: (reason: string) => void): void {
  let isPipe = false;
  try {
    isPipe = fs.fstatSync(0).isFIFO();
  } catch {
    return;
  }
  if (!isPipe) return;
  const stdin = process.stdin;
  const gone = () => {
    cancel("the Pulumi CLI is gone");
    process.stderr.write("pulumi-etl: the Pulumi CLI that started this provider is gone; stopping\n");
    process.exit(1);
  };
  stdin.on("end", gone);
  stdin.on("close", gone);
  stdin.on("error", gone);
  stdin.resume();
  (stdin as { unref?: () => void }).unref?.();
}
