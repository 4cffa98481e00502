/** What the persistence files share: scratch folders removed after the file's tests, and the service's state dump. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { readJson } from "../helpers";

export interface TempDirs {
  /** A new folder in the system's temporary folder. */
  make(prefix: string): string;
  /** A folder made elsewhere, removed with the others. */
  add(dir: string): string;
}

/** Folders removed once the file's tests are over. */
export function useTempDirs(): TempDirs {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const add = (dir: string) => {
    dirs.push(dir);
    return dir;
  };
  return { make: (prefix) => add(mkdtempSync(join(tmpdir(), prefix))), add };
}

export async function state(emulator: { url: string }): Promise<any> {
  return readJson(await fetch(`${emulator.url}/_emulator/state`));
}
