/** Processes as /proc shows them: what the tests need to find and end the processes they started. */
import { readFileSync } from "node:fs";

export function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // ended meanwhile
  }
}

/** A file of /proc/<pid>, ending in a NUL, or empty once the process is gone. */
export function procFile(pid: string, name: string): string {
  try {
    return `${readFileSync(`/proc/${pid}/${name}`, "latin1")}\0`;
  } catch {
    return ""; // ended meanwhile, or not ours to read
  }
}
