/**
 * Inline programs run in the test's own process, each in a run of the Automation API's language
 * server, whose state @pulumi/pulumi keeps in an async context of its own. Not its handlers of
 * uncaught errors: a run adds them to `process`, where they see every error of the process. The
 * engine's operation can end before its program does (the engine stops a preview at its first
 * invalid resource, or is stopped under its program), and the program, still going, fails its
 * late calls to that engine: those errors landed in the next run's handlers, which failed that run
 * (`Resource monitor is terminating`, `14 UNAVAILABLE`), or, after every run, outside any test. A
 * program that never ends kept its handlers on `process` for good, and vitest, seeing a listener
 * besides its own, took every later unhandled error of the file as handled.
 *
 * Here each run's handlers see only the errors raised in that run's own async context; an error
 * of no run reaches vitest as if no run listened, and fails the test file.
 */

/** The events @pulumi/pulumi's runs listen to on `process`. */
const ROUTED = new Set(["uncaughtException", "unhandledRejection"]);

type Listener = (...args: unknown[]) => void;
type ProcessListening = (event: string | symbol, listener: Listener) => NodeJS.Process;

/** Each routed event's run listeners, with the run (its async context's store) each belongs to. */
const runListeners = new Map<string | symbol, Map<Listener, object>>();
const dispatchers = new Map<string | symbol, Listener>();
let routing = false;

/** The store of the run whose async context this is (@pulumi/pulumi's own AsyncLocalStorage). */
function currentRun(): object | undefined {
  return (globalThis as { asyncLocalStorage?: { getStore(): object | undefined } }).asyncLocalStorage?.getStore();
}

/** Makes each inline run's handlers of uncaught errors see its own errors only. */
export function routeErrorsToTheirRuns(): void {
  if (routing) return;
  routing = true;
  const on = process.on.bind(process) as ProcessListening;
  const off = process.off.bind(process) as ProcessListening;
  const dispatcher = (event: string | symbol): Listener => {
    const dispatch: Listener = (...args) => {
      const run = currentRun();
      const owners = [...(runListeners.get(event) ?? [])].filter(([, owner]) => owner === run);
      for (const [listener] of owners) listener(...args);
      if (owners.length > 0) return;
      // No run's error: the process's listeners get it as if no run listened.
      off(event, dispatch);
      try {
        (process.emit as (event: string | symbol, ...args: unknown[]) => boolean).call(process, event, ...args);
      } finally {
        on(event, dispatch);
      }
    };
    return dispatch;
  };
  const listen: ProcessListening = (event, listener) => {
    const run = currentRun();
    if (!ROUTED.has(String(event)) || run === undefined) return on(event, listener);
    const listeners = runListeners.get(event) ?? new Map<Listener, object>();
    runListeners.set(event, listeners.set(listener, run));
    if (!dispatchers.has(event)) {
      dispatchers.set(event, dispatcher(event));
      on(event, dispatchers.get(event)!);
    }
    return process;
  };
  const unlisten: ProcessListening = (event, listener) => {
    const listeners = runListeners.get(event);
    if (!listeners?.delete(listener)) return off(event, listener);
    if (listeners.size === 0) {
      off(event, dispatchers.get(event)!);
      dispatchers.delete(event);
    }
    return process;
  };
  Object.assign(process, { on: listen, addListener: listen, off: unlisten, removeListener: unlisten });
}

/**
 * Gives each inline run's connections to its engine a subchannel pool of their own. grpc-js shares
 * one pool across the process, keyed by address: once one engine has ended, a later engine of the
 * same test process listening on the same loopback port (the system hands ports out again) met the
 * dead engine's subchannel, still backing off, and its program's first call failed at once with
 * `14 UNAVAILABLE: No connection established. Last error: null`. The more files a process runs,
 * the likelier a port comes back.
 */
export function separateRunConnections(): void {
  const settings = require("@pulumi/pulumi/runtime/settings") as { grpcClientOptions: Record<string, unknown> };
  settings.grpcClientOptions["grpc.use_local_subchannel_pool"] = 1;
}
