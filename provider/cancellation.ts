/**
 * Stopping waits when a deployment is cancelled, so Ctrl-C in a terminal or a CI runner's
 * SIGINT/SIGTERM ends `pulumi up` within seconds and every object made so far stays in state.
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
import { operationOf, useEngineLog, withinRequest } from "./progress";

const controller = new AbortController();
let inFlight = 0;
let installed = false;

/** Aborted once the deployment is cancelled; waits and retries watch it. */
export const cancelSignal: AbortSignal = controller.signal;

export function isCancelled(): boolean {
  return controller.signal.aborted;
}

export function cancel(reason: string): void {
  if (!controller.signal.aborted) controller.abort(new Error(reason));
}

/** The cancellation's cause in words, such as "the deployment was cancelled". */
export function cancellationReason(): string {
  const reason = controller.signal.reason as Error | undefined;
  return reason?.message ?? "the deployment was cancelled";
}

/** Counts an operation in flight, so a signal lets it report its object before the process ends. */
export async function tracked<T>(operation: () => Promise<T>): Promise<T> {
  inFlight++;
  try {
    return await operation();
  } finally {
    inFlight--;
  }
}

/**
 * Hooks the three ways in. Only in the dynamic-provider host: a program's process (which runs
 * the functions) has its own signal handling and stdin.
 */
export function installCancellationHooks(): void {
  if (installed || !isDynamicProviderHost()) return;
  installed = true;
  watchHostCalls();
  const engine = process.argv[2];
  if (isEngineAddress(engine)) useEngineLog(engineLogAt(engine));
  installSignalHooks();
}

/** Signals and the CLI's exit end the operations in flight; the plugin's own server handles Cancel. */
export function installSignalHooks(): void {
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => onSignal(signal));
  watchForCliExit();
}

function isDynamicProviderHost(): boolean {
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
function watchHostCalls(): void {
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
      func: (call: Parameters<typeof func>[0], ...rest: unknown[]) => withinRequest(call?.request?.getUrn?.(), operation, () => func(call, ...rest)),
    };
  };
}

/** Longest time a signal leaves operations in flight to report their objects. */
const REPORT_GRACE_MS = 3_000;

function onSignal(signal: string): void {
  cancel(`the provider process received ${signal}`);
  if (inFlight === 0) process.exit(0);
  const poll = setInterval(() => inFlight === 0 && process.exit(0), 50);
  poll.unref();
  setTimeout(() => process.exit(0), REPORT_GRACE_MS).unref();
}

function watchForCliExit(): void {
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
