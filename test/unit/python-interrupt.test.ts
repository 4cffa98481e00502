/**
 * The engine's interrupt of an idle Python program is told apart from a failure of the program,
 * on outputs as the `pulumi` CLI printed them (the progress view's lines, then the diagnostics).
 */
import { describe, expect, it } from "vitest";
import { withoutIdleInterrupts } from "../support/python-interrupt";

const EXEC = "/home/u/.pulumi/bin/pulumi-language-python-exec";
const SITE = "/work/proj/venv/lib/python3.11/site-packages";

/** The event loop's frames as the engine's SIGINT finds it, polling for the registrations' answers. */
const IDLE = [
  "Traceback (most recent call last):",
  `  File "${EXEC}", line 197, in <module>`,
  "    loop.run_until_complete(coro)",
  '  File "/usr/lib/python3.11/asyncio/base_events.py", line 640, in run_until_complete',
  "    self.run_forever()",
  '  File "/usr/lib/python3.11/asyncio/base_events.py", line 1884, in _run_once',
  "    event_list = self._selector.select(timeout)",
  "                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
  '  File "/usr/lib/python3.11/selectors.py", line 468, in select',
  "    fd_event_list = self._selector.poll(timeout, max_ev)",
  "KeyboardInterrupt",
];

/** A registration refused by the engine, surfacing in the SDK's code. */
const FAILED = [
  "Traceback (most recent call last):",
  `  File "${EXEC}", line 197, in <module>`,
  "    loop.run_until_complete(coro)",
  `  File "${SITE}/pulumi/runtime/settings.py", line 352, in handle_grpc_error`,
  "    raise grpc_error_to_exception(exn)",
  "Exception: resource monitor shut down",
];

/** From v3.269: the registration the program waits for cancelled, the SDK's rethrow, the interrupt while it logs them. */
const ENGINE_STOP = [
  "Traceback (most recent call last):",
  `  File "${SITE}/pulumi/runtime/resource.py", line 1340, in do_rpc_call`,
  "    return monitor.RegisterResource(req)",
  `  File "${SITE}/grpc/_channel.py", line 999, in _end_unary_response_blocking`,
  "    raise _InactiveRpcError(state)  # pytype: disable=not-instantiable",
  "grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:",
  "\tstatus = StatusCode.CANCELLED",
  '\tdetails = "context canceled"',
  ">",
  "During handling of the above exception, another exception occurred:",
  "Traceback (most recent call last):",
  '  File "/usr/lib/python3.11/concurrent/futures/thread.py", line 58, in run',
  "    result = self.fn(*self.args, **self.kwargs)",
  `  File "${SITE}/pulumi/runtime/settings.py", line 352, in handle_grpc_error`,
  "    raise grpc_error_to_exception(exn)",
  "Exception: context canceled",
  "During handling of the above exception, another exception occurred:",
  "Traceback (most recent call last):",
  `  File "${EXEC}", line 197, in <module>`,
  "    loop.run_until_complete(coro)",
  `  File "${SITE}/pulumi/runtime/resource.py", line 1349, in do_register`,
  '    f"exception when preparing or executing rpc for {ty=} {name=}: {traceback.format_exc()}"',
  '  File "/usr/lib/python3.11/linecache.py", line 137, in updatecache',
  "    lines = fp.readlines()",
  '  File "<frozen codecs>", line 319, in decode',
  "KeyboardInterrupt",
];

/** The same stop, with the interrupt landing in gRPC's compiled core as the SDK logs the cancellation to the engine. */
const ENGINE_STOP_IN_GRPC_CORE = [
  ...ENGINE_STOP.slice(0, 20),
  `  File "${SITE}/pulumi/runtime/resource.py", line 1348, in do_register`,
  "    log.debug(",
  `  File "${SITE}/pulumi/log.py", line 155, in _log`,
  "    engine.Log(req)",
  `  File "${SITE}/grpc/_channel.py", line 1136, in _blocking`,
  "    call = self._channel.segregated_call(",
  "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
  '  File "src/python/grpcio/grpc/_cython/_cygrpc/channel.pyx.pxi", line 585, in grpc._cython.cygrpc.Channel.segregated_call',
  '  File "src/python/grpcio/grpc/_cython/_cygrpc/channel.pyx.pxi", line 267, in grpc._cython.cygrpc._call',
  '  File "/usr/lib/python3.11/threading.py", line 267, in __exit__',
  "    def __exit__(self, *args):",
  "KeyboardInterrupt",
];

/** The SDK's shutdown after the interrupt, in the program's main coroutine closed with no event loop running. */
const SHUTDOWN = [
  "Exception ignored in: <coroutine object run_in_stack at 0x7f6ccdf9d150>",
  "Traceback (most recent call last):",
  `  File "${SITE}/pulumi/runtime/stack.py", line 254, in run_in_stack`,
  `  File "${SITE}/pulumi/runtime/stack.py", line 145, in run_pulumi_func`,
  `  File "${SITE}/pulumi/runtime/settings.py", line 285, in _shutdown_callbacks`,
  `  File "${SITE}/pulumi/runtime/_callbacks.py", line 110, in shutdown`,
  "RuntimeError: no running event loop",
];

/** As the CLI prints a program's output: once in the progress view, once under the diagnostics. */
function printed(traceback: string[]): string {
  return [
    "Previewing update (dev):",
    ...traceback.map((line) => `    pulumi:pulumi:Stack proj-dev running ${line}`),
    "Diagnostics:",
    "  pulumi:providers:etl (default):",
    "    error: pulumi:providers:etl resource 'default' has a problem: the service refused the API key",
    "",
    "  pulumi:pulumi:Stack (proj-dev):",
    ...traceback.map((line) => `    ${line}`),
    "",
    "Resources:",
  ].join("\n");
}

describe("the tracebacks of the engine's interrupt of an idle Python program", () => {
  it("are taken out of both places the CLI prints them, and nothing else is", () => {
    const { output, removed } = withoutIdleInterrupts(printed(IDLE));
    expect(removed).toBe(2);
    expect(output).not.toMatch(/Traceback|KeyboardInterrupt|File "/);
    expect(output).toContain("error: pulumi:providers:etl resource 'default' has a problem");
    expect(output).toMatch(/pulumi:pulumi:Stack \(proj-dev\):\n\n/);
  });

  it("are taken out of a new stack's row too, which the progress view shows as its step (` +  … create`) while the engine has not moved it on", () => {
    for (const traceback of [IDLE, ENGINE_STOP]) {
      const text = printed(traceback).replaceAll("    pulumi:pulumi:Stack proj-dev running ", " +  pulumi:pulumi:Stack proj-dev create ");
      const { output, removed } = withoutIdleInterrupts(text);
      expect(removed).toBe(2);
      expect(output).not.toMatch(/Traceback|KeyboardInterrupt|File "|CANCELLED/);
    }
  });

  it("a failure of the program is kept, whole", () => {
    const text = printed(FAILED);
    expect(withoutIdleInterrupts(text)).toEqual({ output: text, removed: 0 });
  });

  it("a KeyboardInterrupt raised in the program's own code, or the SDK's, is kept", () => {
    const inProgram = [...IDLE.slice(0, -1), '  File "/work/proj/__main__.py", line 9, in <module>', "    time.sleep(60)", "KeyboardInterrupt"];
    const inSdk = [...IDLE.slice(0, 3), `  File "${SITE}/pulumi/runtime/stack.py", line 211, in wait_for_rpcs`, "    await task", "KeyboardInterrupt"];
    for (const traceback of [inProgram, inSdk]) expect(withoutIdleInterrupts(printed(traceback)).removed).toBe(0);
  });

  it("a failure the interrupt followed stays", () => {
    const chained = [...FAILED, "", "During handling of the above exception, another exception occurred:", "", ...IDLE];
    const { output, removed } = withoutIdleInterrupts(printed(chained));
    expect(removed).toBe(2);
    expect(output).toContain("Exception: resource monitor shut down");
  });

  it("an interrupt cut off as the engine stops reading the program is taken out, between other resources' rows too", () => {
    // As a run printed it: the traceback's first frame, then the provider's row, then the view's end.
    const cut = [
      "Previewing update (dev):",
      "    pulumi:pulumi:Stack proj-dev running Traceback (most recent call last):",
      `    pulumi:pulumi:Stack proj-dev running   File "${EXEC}", line 197, in <module>`,
      "    pulumi:providers:etl default  1 error",
      "    pulumi:pulumi:Stack proj-dev  1 warning; 2 messages",
      "Diagnostics:",
      "  pulumi:pulumi:Stack (proj-dev):",
      "    Traceback (most recent call last):",
      `      File "${EXEC}", line 197, in <module>`,
      "",
      "Resources:",
    ].join("\n");
    const { output, removed } = withoutIdleInterrupts(cut);
    expect(removed).toBe(2);
    expect(output).not.toMatch(/Traceback|File "/);
    expect(output).toContain("pulumi:providers:etl default  1 error");
  });

  it("an interrupt cut off after its heading, before any frame, is taken out of both places", () => {
    // As a run printed it under load: the heading alone on the stack's row and under the diagnostics.
    const cut = [
      "Previewing update (dev):",
      "    pulumi:pulumi:Stack proj-dev running Traceback (most recent call last):",
      "    pulumi:providers:etl default  1 error",
      "    pulumi:pulumi:Stack proj-dev  1 warning; 1 message",
      "Diagnostics:",
      "  pulumi:pulumi:Stack (proj-dev):",
      "    Traceback (most recent call last):",
      "",
      "Resources:",
    ].join("\n");
    const { output, removed } = withoutIdleInterrupts(cut);
    expect(removed).toBe(2);
    expect(output).not.toMatch(/Traceback/);
    expect(output).toContain("pulumi:providers:etl default  1 error");
  });

  it("a traceback cut off after a frame of the program or of the SDK is kept", () => {
    for (const frames of [FAILED.slice(0, 4), [...IDLE.slice(0, 3), '  File "/work/proj/__main__.py", line 9, in <module>']]) {
      const text = printed(frames);
      expect(withoutIdleInterrupts(text)).toEqual({ output: text, removed: 0 });
    }
  });

  it("the engine's stop of a registration, a chain through the SDK and gRPC ending in the interrupt, is taken out whole, cut off or not", () => {
    for (const chain of [ENGINE_STOP, ENGINE_STOP.slice(0, 13), ENGINE_STOP_IN_GRPC_CORE]) {
      const { output, removed } = withoutIdleInterrupts(printed(chain));
      expect(removed).toBe(2);
      expect(output).not.toMatch(/Traceback|KeyboardInterrupt|File "|CANCELLED|During handling|^\s*>$/m);
      expect(output).toContain("error: pulumi:providers:etl resource 'default' has a problem");
    }
  });

  it("a chain with a frame of the program, another gRPC status or another exception is kept", () => {
    const inProgram = ENGINE_STOP.map((line) => line.replace(`${SITE}/grpc/_channel.py`, "/work/proj/__main__.py"));
    const otherStatus = ENGINE_STOP.map((line) => line.replace("StatusCode.CANCELLED", "StatusCode.UNAVAILABLE"));
    const otherException = ENGINE_STOP.map((line) => line.replace("Exception: context canceled", "ValueError: bad input"));
    const otherCompiledCore = ENGINE_STOP_IN_GRPC_CORE.map((line) => line.replace("src/python/grpcio/grpc/_cython", "src/other/_cython"));
    for (const chain of [inProgram, otherStatus, otherException, otherCompiledCore]) {
      const text = printed(chain);
      expect(withoutIdleInterrupts(text)).toEqual({ output: text, removed: 0 });
    }
  });

  it("the SDK's shutdown after the interrupt, printed as an exception ignored in the program's main coroutine, is taken out with its first line", () => {
    const { output, removed } = withoutIdleInterrupts(printed(SHUTDOWN));
    expect(removed).toBe(2);
    expect(output).not.toMatch(/Traceback|Exception ignored|File "|RuntimeError/);
    expect(output).toContain("error: pulumi:providers:etl resource 'default' has a problem");
  });

  it("that shutdown's shape with a frame of the program, another exception or no such first line is kept", () => {
    const inProgram = SHUTDOWN.map((line) => line.replace(`${SITE}/pulumi/runtime/stack.py`, "/work/proj/__main__.py"));
    const otherException = SHUTDOWN.map((line) => line.replace("RuntimeError: no running event loop", "RuntimeError: bad input"));
    for (const traceback of [inProgram, otherException, SHUTDOWN.slice(1)]) {
      const text = printed(traceback);
      expect(withoutIdleInterrupts(text)).toEqual({ output: text, removed: 0 });
    }
  });
});
