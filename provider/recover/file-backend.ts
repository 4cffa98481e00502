/**
 * What `etl-recover` reads and mends itself in a file backend (`file://`): a stack's locks, and
 * the metadata files beside its state. The backend replaces a state file whole (a new file
 * renamed over it), then rewrites the file's metadata, `<file>.attrs`, in place: a run killed
 * between the truncation and the write leaves the metadata empty, and every later command on
 * the stack fails with "failed to load checkpoint: EOF" though the state itself is whole.
 * The metadata holds only a content type and a checksum, which the backend writes again on its
 * next update; without the file it reads the state as it is.
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

/** The folder of a file backend's address (`file:///srv/state?no_tmp_dir=true`), or undefined for any other backend. */
export function backendFolder(url: string | undefined): string | undefined {
  if (url === undefined || !url.startsWith("file://")) return undefined;
  return fileURLToPath(url.split("?")[0]!);
}

function filesIn(folder: string, keep: (name: string) => boolean): string[] {
  try {
    return readdirSync(folder)
      .filter(keep)
      .map((name) => path.join(folder, name));
  } catch {
    return [];
  }
}

/** The lock files of a stack: the project layout's, then the legacy layout's. */
export function lockFiles(root: string, project: string, stack: string): string[] {
  const locks = path.join(root, ".pulumi", "locks");
  const isLock = (name: string) => name.endsWith(".json");
  return [...filesIn(path.join(locks, "organization", project, stack), isLock), ...filesIn(path.join(locks, stack), isLock)];
}

function holdsJson(file: string): boolean {
  try {
    JSON.parse(readFileSync(file, "utf8"));
    return true;
  } catch {
    return false;
  }
}

/**
 * The metadata files of the backend's states (each `<stack>.json.attrs` and its backup's) that a
 * killed run left empty or cut short. A command fails on any stack whose metadata is broken, and
 * the names of a stack it cannot read are not to be had from the CLI: every stack's is looked for.
 */
export function brokenMetadata(root: string): string[] {
  const stacks = path.join(root, ".pulumi", "stacks");
  const projects = filesIn(stacks, (name) => !name.includes("."));
  const isMetadata = (name: string) => name.endsWith(".attrs");
  return [stacks, ...projects].flatMap((folder) => filesIn(folder, isMetadata)).filter((file) => !holdsJson(file));
}

export function removeFiles(files: string[]): void {
  for (const file of files) rmSync(file, { force: true });
}
