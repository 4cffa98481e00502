/**
 * What `etl-export` prints after writing a project, read as a user reads it: the values the
 * service never returns, each with the environment variable its step reads, and the steps
 * themselves, exactly as printed, which `bash -e` runs in a fresh environment of its own.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";

export interface ExportedSetting {
  /** The stack setting the program reads. */
  name: string;
  /** The environment variable its step reads. */
  variable: string;
  secret: boolean;
  what: string;
  kind: string;
  id: string;
}

const STEPS_HEADER = /^next, .*paste these lines into a shell:$/m;

/** The lines to paste, as printed (their indentation too): everything after the header. */
export function printedSteps(stdout: string): string[] {
  const header = STEPS_HEADER.exec(stdout);
  if (header === null) throw new Error(`etl-export printed no steps:\n${stdout}`);
  return stdout
    .slice(header.index + header[0].length)
    .split("\n")
    .filter((line) => line.trim() !== "");
}

/** Each value to set: its variable and object from the list, its setting from the step that stores it. */
export function exportedSettings(stdout: string): ExportedSetting[] {
  const objects = new Map([...stdout.matchAll(/^ {2}([A-Z0-9_]+): +(\S+) of (\w+) (\d+) /gm)].map((m) => [m[1]!, { what: m[2]!, kind: m[3]!, id: m[4]! }]));
  return [...stdout.matchAll(/pulumi config set( --secret)? (\w+) <<< "\$\{([A-Z0-9_]+):\?is not set\}"/g)].map((m) => {
    const object = objects.get(m[3]!);
    if (object === undefined) throw new Error(`the step setting ${m[2]} reads ${m[3]}, which the list of values does not name`);
    return { name: m[2]!, variable: m[3]!, secret: m[1] !== undefined, ...object };
  });
}

export interface FreshShell {
  /** Folders on PATH, and nothing else of this process's environment. */
  path: string[];
  /** The variables the shell starts with besides PATH and HOME. */
  env: Record<string, string>;
  /** A folder of the test's own: the shell's empty HOME and the script. */
  scratch: string;
}

/** `bash -e` of the lines, in an environment of PATH, an empty HOME and `env` only; from the scratch folder. */
export function runInFreshShell(lines: string[], shell: FreshShell): Promise<{ code: number | null; output: string }> {
  const home = path.join(shell.scratch, "home");
  mkdirSync(home, { recursive: true });
  const script = path.join(shell.scratch, "steps.sh");
  writeFileSync(script, `${lines.join("\n")}\n`);
  const env = { PATH: shell.path.join(path.delimiter), HOME: home, ...shell.env };
  const child = spawn("/bin/bash", ["-e", script], { cwd: shell.scratch, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, output })));
}
