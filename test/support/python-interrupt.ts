/**
 * The engine's interrupt of a Python program, told apart from a failure of the program: when the
 * engine stops a deployment on an error found while it plans (a provider's or a resource's check),
 * it never answers the registrations the program still waits for, and ends the program with SIGINT
 * as it closes the language host (v3.259: the source is cancelled only after a step's failure,
 * `cmdutil.InterruptChildren` on close). Python's default handler then prints a `KeyboardInterrupt`
 * traceback, whole, cut off or not at all as the output is drained, from the language host's
 * event loop only: no frame of the program, of the Pulumi SDK or of the etl SDK.
 */

const PROGRESS_ROW = /^\s*pulumi:pulumi:Stack \S+ running /;

/** A line as the program printed it: the progress view's prefix (`pulumi:pulumi:Stack <name> running `) taken off, its indentation kept. */
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

/**
 * The traceback of an idle program interrupted: every frame the event loop's, the exception
 * `KeyboardInterrupt` alone, or none where the output was cut off after those frames. A cut-off
 * traceback cannot show a failure of the program that the frames so far hide: such a failure is
 * also reported as an error of its own, which the caller counts.
 */
function isIdleInterrupt(traceback: Traceback, lines: string[]): boolean {
  const frames = traceback.lines.map((index) => programLine(lines[index]!).trim()).filter((text) => text.startsWith("File "));
  const interrupted = traceback.exception === undefined || traceback.exception === "KeyboardInterrupt";
  return frames.length > 0 && frames.every((frame) => IDLE_FRAME.test(frame)) && interrupted;
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
    if (!isIdleInterrupt(traceback, lines)) return;
    removed++;
    for (const taken of traceback.lines) dropped.add(taken);
  });
  return { output: lines.filter((_, index) => !dropped.has(index)).join("\n"), removed };
}
