/**
 * The oldest Node.js the package's commands (`etl-export`, `etl-recover`, `etl-emulator`) run on:
 * package.json's `engines.node`, which npm only warns about. Older ones load the commands and then
 * fail far from the cause (a request dropped with an error about a missing function), so each
 * command refuses them first, in one line.
 */

/** package.json's `engines.node` is `>=` this (a unit test holds the two equal). */
export const OLDEST_NODE = "22.19.0";

function parts(version: string): number[] {
  return version.split(".").map((part) => Number.parseInt(part, 10) || 0);
}

function isOlder(version: string, than: string): boolean {
  const [a, b] = [parts(version), parts(than)];
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
}

/** Why `command` cannot run on Node.js `running` (as `process.versions.node` says it), or nothing when it can. */
export function nodeVersionProblem(command: string, running: string): string | undefined {
  if (!isOlder(running, OLDEST_NODE)) return undefined;
  return `${command} needs Node.js ${OLDEST_NODE} or later; this is Node.js v${running}`;
}

/** Ends the process (exit 1, one line) when the Node.js running `command` is older than the package supports. */
export function requireSupportedNode(command: string): void {
  const problem = nodeVersionProblem(command, process.versions.node);
  if (problem === undefined) return;
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
