/**
 * The engine's interrupt of a Python program, told apart from a failure of the program: when the
 * engine stops a deployment on an error found while it plans (a provider's or a resource's check),
 * it never answers the registrations the program still waits for, and ends the program with SIGINT
 * as it closes the language host (v3.259: the source is cancelled only after a step's failure,
 * `cmdutil.InterruptChildren` on close). Python's default handler then prints a `KeyboardInterrupt`
 * traceback, whole, cut off or not at all as the output is drained, from the language host's
 * event loop only: no frame of the program, of the Pulumi SDK or of the etl SDK. From v3.269 the
 * engine also cancels the registrations the program waits for, and the traceback is a chain
 * through the SDK and gRPC (`engineStopAt`).
 */

/**
 * The stack's row in the progress view, as the program's output prints on it: `running` once the
 * stack exists, and, for a new stack, its step and status (` +  pulumi:pulumi:Stack <name> create `
 * in a preview, `creating` in an update) while the engine has not yet moved the row on.
 */
const PROGRESS_ROW = /^\s*(?:\+\s+)?pulumi:pulumi:Stack \S+ (?:running|create|creating) /;

/** A line as the program printed it: the progress view's prefix (the stack's row, above) taken off, its indentation kept. */
function programLine(line: string): string {
  return line.replace(PROGRESS_ROW, "").trimEnd();
}

const indentation = (text: string) => text.length - text.trimStart().length;

/** A frame of the language host's event loop, waiting: its `-exec` script, asyncio, the selector it polls. */
const IDLE_FRAME = /^File "(?:\S*\/pulumi-language-python-exec|\S*\/asyncio\/\w+\.py|\S*\/selectors\.py)", line \d+, in \S+$/;

interface Traceback {
  /** The indices of its lines in the output. */
  lines: number[];
  /** Its exception line, or undefined when the output moved on before it (the engine stopped draining the program). */
  exception: string | undefined;
}

/**
 * The traceback whose heading is at `start`. In the progress view its lines are the program's
 * rows (other resources' rows may come between them) until the view ends; under the diagnostics,
 * the lines indented below the heading. It ends at the line as indented as its heading, the
 * exception, or is cut off where the program's lines stop first.
 */
function tracebackAt(lines: string[], start: number): Traceback {
  const inProgressView = PROGRESS_ROW.test(lines[start]!);
  const depth = indentation(programLine(lines[start]!));
  const found: number[] = [start];
  for (let index = start + 1; index < lines.length; index++) {
    const line = lines[index]!;
    if (inProgressView && !PROGRESS_ROW.test(line)) {
      if (/^\s/.test(line)) continue;
      break;
    }
    const text = programLine(line);
    if (text.trim() === "") break;
    found.push(index);
    if (indentation(text) <= depth) return { lines: found, exception: text.trim() };
  }
  return { lines: found, exception: undefined };
}

/** A traceback's frames, each its `File "…", line N, in …` line. */
function framesOf(traceback: Traceback, lines: string[]): string[] {
  return traceback.lines.map((index) => programLine(lines[index]!).trim()).filter((text) => text.startsWith("File "));
}

/**
 * The traceback of an idle program interrupted: every frame the event loop's, the exception
 * `KeyboardInterrupt` alone, or none where the output was cut off after those frames, or after
 * the heading before any frame. A cut-off traceback cannot show a failure of the program that the
 * frames so far hide: such a failure is also reported as an error of its own, which the caller counts.
 */
function isIdleInterrupt(traceback: Traceback, lines: string[]): boolean {
  if (traceback.exception === undefined && traceback.lines.length === 1) return true;
  const frames = framesOf(traceback, lines);
  const interrupted = traceback.exception === undefined || traceback.exception === "KeyboardInterrupt";
  return frames.length > 0 && frames.every((frame) => IDLE_FRAME.test(frame)) && interrupted;
}

const CHAIN_LINK = "During handling of the above exception, another exception occurred:";
const HEADING = "Traceback (most recent call last):";

/**
 * A frame the engine's stop of a registration passes through: the exec script, Python's library,
 * the Pulumi SDK, gRPC (its Python modules, and its compiled core, whose frames name the Cython
 * sources as gRPC's build recorded them, `src/python/grpcio/grpc/_cython/…`).
 */
const STOP_FRAME =
  /^File "(?:<frozen [\w.]+>|\S*\/pulumi-language-python-exec|\S*\/lib\/python3\.\d+\/(?!site-packages\/)\S+|\S*\/site-packages\/(?:pulumi|grpc)\/\S+|src\/python\/grpcio\/grpc\/_cython\/\S+\.pyx(?:\.pxi)?)", line \d+, in \S+$/;

/** The exceptions of that stop: the registration cancelled, the SDK's rethrow of it, the interrupt. */
const STOP_EXCEPTION = /^(?:grpc\._channel\._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:|Exception: context canceled|KeyboardInterrupt)$/;

/** An exception's further lines (a gRPC error's status and details, its closing ">"), not the chain's next link. */
function isExceptionDetail(text: string, depth: number): boolean {
  const trimmed = text.trim();
  return trimmed !== "" && trimmed !== CHAIN_LINK && trimmed !== HEADING && (indentation(text) > depth || trimmed === ">");
}

/** The first of `lines` from `from` on that has text, in the diagnostics (the progress view prints no blank rows). */
function nextWithText(lines: string[], from: number): number {
  let index = from;
  while (index < lines.length && programLine(lines[index]!).trim() === "") index++;
  return index;
}

/**
 * The lines of the chain of tracebacks at `start` when it is the engine's stop of a registration:
 * from v3.269 the engine cancels its resource monitor as it stops on an error found while it plans,
 * so a registration the program waits for ends with gRPC's CANCELLED ("context canceled"), which
 * the SDK rethrows, and the SIGINT that follows interrupts its handling. Every frame is the exec
 * script's, Python's, the SDK's or gRPC's; undefined for any other chain.
 */
function engineStopAt(lines: string[], start: number): number[] | undefined {
  const taken: number[] = [];
  const details: string[] = [];
  let heading = start;
  for (;;) {
    const traceback = tracebackAt(lines, heading);
    taken.push(...traceback.lines);
    const frames = framesOf(traceback, lines);
    if (!frames.every((frame) => STOP_FRAME.test(frame))) return undefined;
    if (traceback.exception === undefined) break;
    if (!STOP_EXCEPTION.test(traceback.exception)) return undefined;
    const depth = indentation(programLine(lines[heading]!));
    let next = traceback.lines.at(-1)! + 1;
    while (next < lines.length && isExceptionDetail(programLine(lines[next]!), depth)) {
      details.push(programLine(lines[next]!).trim());
      taken.push(next++);
    }
    const link = nextWithText(lines, next);
    const following = nextWithText(lines, link + 1);
    if (programLine(lines[link] ?? "").trim() !== CHAIN_LINK || programLine(lines[following] ?? "").trim() !== HEADING) break;
    for (let index = next; index < following; index++) taken.push(index);
    heading = following;
  }
  return details.includes("status = StatusCode.CANCELLED") ? taken : undefined;
}

/** What Python prints above the traceback of an exception it could not raise, here in the program's main coroutine. */
const IGNORED_IN_MAIN = /^Exception ignored in: <coroutine object run_in_stack at 0x[0-9a-f]+>$/;

/**
 * The lines of the SDK's shutdown after the interrupt, when the traceback at `start` is it: the
 * program's main coroutine, closed once the interrupt has stopped the event loop, runs the SDK's
 * shutdown of its callbacks, which needs a running loop, and Python prints the `RuntimeError` as
 * an exception ignored. Every frame the SDK's or Python's; undefined for any other traceback.
 */
function shutdownAfterInterruptAt(lines: string[], start: number): number[] | undefined {
  if (!IGNORED_IN_MAIN.test(programLine(lines[start - 1] ?? "").trim())) return undefined;
  const traceback = tracebackAt(lines, start);
  const frames = framesOf(traceback, lines);
  if (!frames.every((frame) => STOP_FRAME.test(frame))) return undefined;
  if (traceback.exception !== undefined && traceback.exception !== "RuntimeError: no running event loop") return undefined;
  return [start - 1, ...traceback.lines];
}

/**
 * The output without the tracebacks of the engine's interrupt of an idle Python program (as the
 * progress view and the diagnostics each print it, whole or cut off), and how many were taken out;
 * any other traceback is left in place.
 */
export function withoutIdleInterrupts(output: string): { output: string; removed: number } {
  const lines = output.split("\n");
  const dropped = new Set<number>();
  let removed = 0;
  lines.forEach((line, index) => {
    if (dropped.has(index) || programLine(line).trim() !== "Traceback (most recent call last):") return;
    const traceback = tracebackAt(lines, index);
    const taken = isIdleInterrupt(traceback, lines) ? traceback.lines : (engineStopAt(lines, index) ?? shutdownAfterInterruptAt(lines, index));
    if (taken === undefined) return;
    removed++;
    for (const line of taken) dropped.add(line);
  });
  return { output: lines.filter((_, index) => !dropped.has(index)).join("\n"), removed };
}
