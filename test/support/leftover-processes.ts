/**
 * Every process a test starts ends with the run (vitest's globalSetup). The run marks its
 * environment before any test starts; every process the tests start inherits the mark, whatever
 * becomes of its parent (an engine, a language host, a provider plugin, an emulator, a CLI
 * killed mid-operation). When the run ends, a process still alive with the mark fails the run,
 * named with its command line, and is killed so that it outlives the run no further.
 */
import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { killQuietly, procFile } from "./processes";

const MARK = "ETL_TEST_RUN";
/** Processes ending as the run ends (a provider told to shut down, a killed CLI's host) get this long. */
const GRACE_MS = 5_000;

interface Leftover {
  pid: number;
  command: string;
}

export function setup(): void {
  process.env[MARK] = `${process.pid}-${randomUUID()}`;
}

export async function teardown(): Promise<void> {
  const mark = process.env[MARK];
  if (!mark) return;
  const deadline = Date.now() + GRACE_MS;
  let left = processesMarked(mark);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    left = processesMarked(mark);
  }
  if (left.length === 0) return;
  for (const { pid } of left) killQuietly(pid);
  const listed = left.map(({ pid, command }) => `  ${pid} ${command}`).join("\n");
  throw new Error(`${left.length} process(es) the tests started outlived the run (now killed):\n${listed}`);
}

/**
 * Live processes carrying the run's mark but vitest's own (its workers are this process's
 * children; a test's processes are a worker's, or, orphaned, another's).
 */
function processesMarked(mark: string): Leftover[] {
  const marker = `\0${MARK}=${mark}\0`;
  return readdirSync("/proc")
    .filter((pid) => /^\d+$/.test(pid) && Number(pid) !== process.pid && `\0${procFile(pid, "environ")}`.includes(marker))
    .filter((pid) => {
      const { state, parent } = statusOf(pid);
      // A zombie has ended; only its parent's reaping is left.
      return state !== "Z" && parent !== process.pid;
    })
    .map((pid) => ({ pid: Number(pid), command: procFile(pid, "cmdline").replaceAll("\0", " ").trim() }));
}

/** The state letter and the parent's pid, from /proc/<pid>/stat (after the command's name, which may hold spaces). */
function statusOf(pid: string): { state: string; parent: number } {
  const stat = procFile(pid, "stat");
  const [state = "", parent = ""] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { state, parent: Number(parent) };
}
