/**
 * The engine's interrupt of a Python program, told apart from a failure of the program: when the
 * engine stops a deployment on an error found while it plans (a provider's or a resource's check),
 * it never answers the registrations the program still waits for, and ends the program with SIGINT
 * as it closes the language host (v3.259: the source is cancelled only after a step's failure,
 * `cmdutil.InterruptChildren` on close). Python's default handler then prints a `KeyboardInterrupt`
 * traceback, whole or not at all as the output is drained, from the language host's event loop
 * only: no frame of the program, of the Pulumi SDK or of the etl SDK.
 */

/** A line as the program printed it: the progress view's prefix (`pulumi:pulumi:Stack <name> running `) taken off, its indentation kept. */
function programLine(line: string): string {
  return line.replace(/^\s*pulumi:pulumi:Stack \S+ running /, "").trimEnd();
}

const indentation = (text: string) => text.length - text.trimStart().length;

/** A frame of the language host's event loop, waiting: its `-exec` script, asyncio, the selector it polls. */
const IDLE_FRAME = /^File "(?:\S*\/pulumi-language-python-exec|\S*\/asyncio\/\w+\.py|\S*\/selectors\.py)", line \d+, in \S+$/;

/** A traceback's lines from its heading to its exception line (the next line as indented as the heading), or undefined when the output ends first. */
function tracebackAt(lines: string[], start: number): string[] | undefined {
  const depth = indentation(programLine(lines[start]!));
  for (let end = start + 1; end < lines.length; end++) {
    const text = programLine(lines[end]!);
    if (text.trim() !== "" && indentation(text) <= depth) return lines.slice(start, end + 1);
  }
  return undefined;
}

/** The traceback of an idle program interrupted: every frame the event loop's, the exception `KeyboardInterrupt` alone. */
function isIdleInterrupt(traceback: string[]): boolean {
  const texts = traceback.map((line) => programLine(line).trim());
  const frames = texts.filter((text) => text.startsWith("File "));
  return frames.length > 0 && frames.every((frame) => IDLE_FRAME.test(frame)) && texts.at(-1) === "KeyboardInterrupt";
}

/**
 * The output without the tracebacks of the engine's interrupt of an idle Python program (as the
 * progress view and the diagnostics each print it), and how many were taken out; any other
 * traceback is left in place.
 */
export function withoutIdleInterrupts(output: string): { output: string; removed: number } {
  const lines = output.split("\n");
  const kept: string[] = [];
  let removed = 0;
  for (let index = 0; index < lines.length; index++) {
    const traceback = programLine(lines[index]!).trim() === "Traceback (most recent call last):" ? tracebackAt(lines, index) : undefined;
    if (traceback !== undefined && isIdleInterrupt(traceback)) {
      removed++;
      index += traceback.length - 1;
    } else {
      kept.push(lines[index]!);
    }
  }
  return { output: kept.join("\n"), removed };
}
