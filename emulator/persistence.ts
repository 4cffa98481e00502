import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import * as path from "node:path";
import type { Snapshot, Store } from "./store";

/**
 * `--data DIR`: the whole state in DIR/state.json, written after every change and before the
 * response that acknowledges it. The file is replaced atomically (write a temporary file, fsync
 * it, rename it over the old one, fsync the folder), so a crash leaves either the old state or
 * the new one, never a torn file, and nothing acknowledged is lost.
 */

const STATE_FILE = "state.json";

export class PersistenceError extends Error {
  override name = "PersistenceError";
}

export function loadSnapshot(dir: string): Snapshot | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(dir, STATE_FILE), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new PersistenceError(`cannot read ${path.join(dir, STATE_FILE)}: ${(error as Error).message}`);
  }
  let snapshot: Snapshot;
  try {
    snapshot = JSON.parse(text) as Snapshot;
  } catch (error) {
    throw new PersistenceError(`${path.join(dir, STATE_FILE)} is not valid JSON: ${(error as Error).message}`);
  }
  if (snapshot?.format !== 1) throw new PersistenceError(`${path.join(dir, STATE_FILE)} is not an emulator state file (format 1)`);
  return snapshot;
}

function writeDurably(file: string, text: string): void {
  const fd = openSync(file, "w");
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function syncDirectory(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function saveSnapshot(dir: string, snapshot: Snapshot): void {
  mkdirSync(dir, { recursive: true });
  const target = path.join(dir, STATE_FILE);
  const temporary = path.join(dir, `.${STATE_FILE}.${process.pid}.tmp`);
  writeDurably(temporary, JSON.stringify(snapshot));
  renameSync(temporary, target);
  syncDirectory(dir);
}

/** Saves the store whenever it changed since the last save. */
export class Persistence {
  private savedAt = -1;

  constructor(
    private readonly dir: string,
    private readonly store: Store,
  ) {}

  saveIfChanged(): void {
    if (this.store.changes === this.savedAt) return;
    saveSnapshot(this.dir, this.store.snapshot());
    this.savedAt = this.store.changes;
  }
}
