/**
 * The Pulumi CLI as `etl-recover` uses it, in the program's folder: the stack's state out and
 * back in, a refresh of the adopted resources, the stack's settings, when it last finished, and
 * its locks. Every call names the stack when one was given.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { UserFacingError } from "../errors";
import { backendFolder, brokenMetadata, lockFiles, removeFiles } from "./file-backend";
import type { Deployment } from "./state";

export interface Pulumi {
  exportState(showSecrets: boolean): Promise<Deployment>;
  importState(deployment: Deployment): Promise<void>;
  refresh(urns: string[]): Promise<void>;
  cancel(): Promise<void>;
  /** The stack's configuration, secrets decrypted: only ever handed to the client. */
  config(): Promise<Record<string, string>>;
  /** When the last deployment recorded in the stack's history started or ended, if any. */
  lastHistoryTime(): Promise<number | undefined>;
  /** The stack's locks in a file backend (none known for other backends). */
  locks(project: string, stackName: string): Promise<Lock[]>;
  /** The state metadata files a killed run left broken in a file backend, removed unless only asked: their paths. */
  mendMetadata(dryRun: boolean): Promise<string[]>;
}

export interface Lock {
  file: string;
  pid: number;
  hostname: string;
  at: number;
}

type Run = { code: number | null; stdout: string; stderr: string };

function run(args: string[], input?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.env.PULUMI_COMMAND ?? "pulumi", [...args, "--non-interactive"], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", (error) => reject(new UserFacingError(`cannot run pulumi (${error.message}); put the Pulumi CLI on PATH or name it in PULUMI_COMMAND`)));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? "");
  });
}

/** The CLI's own words on a failure: its last lines, which say what went wrong. */
function failure(what: string, result: Run): UserFacingError {
  const said = `${result.stderr}\n${result.stdout}`
    .trim()
    .split("\n")
    .filter((line) => line.trim() !== "")
    .slice(-6)
    .join("\n  ");
  return new UserFacingError(`pulumi ${what} failed:\n  ${said}`);
}

async function succeed(what: string, args: string[], input?: string): Promise<string> {
  const result = await run(args, input);
  if (result.code !== 0) throw failure(what, result);
  return result.stdout;
}

async function fileBackendFolder(): Promise<string | undefined> {
  const whoami = await run(["whoami", "--json"]);
  return whoami.code === 0 ? backendFolder((JSON.parse(whoami.stdout) as { url?: string }).url) : undefined;
}

export function pulumiCli(stack: string | undefined): Pulumi {
  const on = stack === undefined ? [] : ["--stack", stack];
  return {
    exportState: async (showSecrets) =>
      JSON.parse(await succeed("stack export", ["stack", "export", ...on, ...(showSecrets ? ["--show-secrets"] : [])])) as Deployment,
    importState: async (deployment) => void (await succeed("stack import", ["stack", "import", ...on], JSON.stringify(deployment))),
    refresh: async (urns) => void (await succeed("refresh", ["refresh", ...on, "--yes", "--skip-preview", ...urns.flatMap((urn) => ["--target", urn])])),
    cancel: async () => void (await succeed("cancel", ["cancel", ...on, "--yes"])),
    config: async () => {
      const shown = JSON.parse(await succeed("config", ["config", ...on, "--json", "--show-secrets"])) as Record<string, { value?: unknown }>;
      return Object.fromEntries(Object.entries(shown).flatMap(([key, entry]) => (typeof entry.value === "string" ? [[key, entry.value]] : [])));
    },
    lastHistoryTime: async () => {
      const result = await run(["stack", "history", ...on, "--json", "--page-size", "1", "--page", "1"]);
      if (result.code !== 0) return undefined;
      const [last] = JSON.parse(result.stdout || "[]") as Array<{ startTime?: string; endTime?: string }>;
      const at = Date.parse(last?.endTime ?? last?.startTime ?? "");
      return Number.isFinite(at) ? at : undefined;
    },
    locks: async (project, stackName) => {
      const root = await fileBackendFolder();
      return (root === undefined ? [] : lockFiles(root, project, stackName)).map((file) => {
        const content = JSON.parse(readFileSync(file, "utf8")) as { pid: number; hostname: string; timestamp: string };
        return { file, pid: content.pid, hostname: content.hostname, at: Date.parse(content.timestamp) };
      });
    },
    mendMetadata: async (dryRun) => {
      const root = await fileBackendFolder();
      const broken = root === undefined ? [] : brokenMetadata(root);
      if (!dryRun) removeFiles(broken);
      return broken;
    },
  };
}

/** Whether a lock's process still runs on this machine: then its deployment is not over. */
export function isLive(lock: Lock): boolean {
  if (lock.hostname !== hostname()) return false;
  try {
    process.kill(lock.pid, 0);
    return true;
  } catch {
    return false;
  }
}
