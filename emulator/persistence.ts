import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import * as path from "node:path";
import { upgradedSnapshot, type SavedSnapshot } from "./state-upgrade";
import type { Snapshot, Store } from "./store";

/**
 * `--data DIR`: the whole state in DIR/state.json, written after every change and before the
 * response that acknowledges it. The file is replaced atomically (write a temporary file, fsync
 * it, rename it over the old one, fsync the folder), so a crash leaves either the old state or
 * the new one, never a torn file, and nothing acknowledged is lost. One emulator per folder:
 * two writing the same folder would overwrite each other's state.
 */

const STATE_FILE = "state.json";
/** Left behind only by a crash between writing and renaming; never holds acknowledged state. */
const TEMPORARY_FILE = /^\.state\.json\.\d+\.tmp$/;

export class PersistenceError extends Error {
  override name = "PersistenceError";
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const isRow = (value: unknown): boolean => isObject(value) && Number.isInteger(value.id) && Number.isInteger(value.accountId);

/** What a problem with the file's shape is, or undefined when it can be loaded. */
function shapeProblem(value: unknown): string | undefined {
  if (!isObject(value) || value.format !== 1) return "it is not an emulator state file (format 1)";
  // Accounts and users beside the tables: states saved before they were tables (`state-upgrade.ts`).
  if (value.accounts !== undefined && !(Array.isArray(value.accounts) && value.accounts.every((a) => isObject(a) && typeof a.uid === "string"))) {
    return "accounts must be an array of accounts with uid";
  }
  if (value.users !== undefined && !(Array.isArray(value.users) && value.users.every((u) => isObject(u) && Number.isInteger(u.id)))) {
    return "users must be an array of users with id";
  }
  if (!isObject(value.sequences) || !Object.values(value.sequences).every(Number.isInteger)) {
    return "sequences must map table names to integers";
  }
  if (!isObject(value.tables) || !Object.values(value.tables).every((rows) => Array.isArray(rows) && rows.every(isRow))) {
    return "tables must map table names to arrays of rows with id and accountId";
  }
  return undefined;
}

function readStateFile(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new PersistenceError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

/** The saved state of `dir`, or undefined when it has none yet. */
export function loadSnapshot(dir: string): Snapshot | undefined {
  const file = path.join(dir, STATE_FILE);
  const text = readStateFile(file);
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PersistenceError(`${file} is not valid JSON: ${(error as Error).message.split("\n")[0]}`);
  }
  const problem = shapeProblem(value);
  if (problem !== undefined) throw new PersistenceError(`${file} cannot be loaded: ${problem}`);
  return upgradedSnapshot(value as SavedSnapshot, new Date().toISOString());
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

function removeTemporaryFiles(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (TEMPORARY_FILE.test(name)) rmSync(path.join(dir, name), { force: true });
}

/** Saves the store whenever it changed since the last save. */
export class Persistence {
  private savedAt = -1;

  constructor(
    private readonly dir: string,
    private readonly store: Store,
  ) {}

  /** The first save: clears leftovers of a crash and fails clearly when the folder is unusable. */
  start(): void {
    removeTemporaryFiles(this.dir);
    try {
      this.saveIfChanged();
    } catch (error) {
      throw new PersistenceError(`cannot save state in ${this.dir}: ${(error as Error).message}`);
    }
  }

  saveIfChanged(): void {
    if (this.store.changes === this.savedAt) return;
    saveSnapshot(this.dir, this.store.snapshot());
    this.savedAt = this.store.changes;
  }
}
