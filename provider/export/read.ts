/**
 * Reading an account's set-up for `etl-export`: every exportable kind's listing, page by page,
 * then what a listing leaves out (a package's flow), and the inputs an import by id would
 * rebuild for each object, with references, secrets and files put in. Only GETs: the export
 * never writes to the service.
 */
import { parseRecord } from "../api/records";
import { collectAllPages } from "../client/pagination";
import type { RequestFn } from "../client/http";
import { newSettingsMemory, type SettingsUse } from "../context";
import { RESOURCES, RESOURCE_KINDS, type ResourceKind } from "../resources/registry";
import {
  ConfigValue,
  FileText,
  isExportable,
  ResourceReference,
  type ExportContext,
  type ExportDeclaration,
  type RuntimeKind,
} from "../resources/shared/exported";
import { logicalNames, variableName } from "./names";

export interface ExportedObject {
  kind: ResourceKind;
  id: string;
  /** The resource's name in the stack: readable, unique in its kind, the same on every export. */
  name: string;
  /** The name the program gives the resource's variable (camelCase; each language spells it its way). */
  variable: string;
  inputs: Record<string, unknown>;
}

export interface LeftOut {
  kind: string;
  id?: string;
  name?: string;
  reason: string;
}

export interface AccountExport {
  objects: ExportedObject[];
  leftOut: LeftOut[];
  /** Configuration the program reads: each value's name, whether secret, and what it is. */
  settings: Array<{ name: string; object: string; what: string; secret: boolean }>;
  files: FileText[];
}

export interface ReadOptions {
  kinds: readonly ResourceKind[];
  namePrefix?: string;
  progress?: (message: string) => void;
  /** Requests at once while completing records. */
  concurrency?: number;
  /** Which listed objects the export holds (all when not given), asked before any is read in full. */
  keep?: (object: { kind: ResourceKind; id: string; name: string }) => boolean;
}

type Listed = { kind: ResourceKind; id: string; record: Record<string, unknown>; label: string };

function declarationOf(kind: ResourceKind): ExportDeclaration | undefined {
  const declared = RESOURCES[kind].export;
  return isExportable(declared) ? declared : undefined;
}

/** The kinds an export holds, and the others with why they are left out. */
export function exportableKinds(): { kinds: ResourceKind[]; runtime: LeftOut[] } {
  const kinds = RESOURCE_KINDS.filter((kind) => declarationOf(kind) !== undefined);
  const runtime = RESOURCE_KINDS.flatMap((kind) => {
    const declared: ExportDeclaration | RuntimeKind = RESOURCES[kind].export;
    return "runtime" in declared ? [{ kind, reason: `not exported: ${declared.runtime}` }] : [];
  });
  return { kinds, runtime };
}

async function listKind(request: RequestFn, kind: ResourceKind, progress: (message: string) => void): Promise<Listed[]> {
  const declaration = declarationOf(kind)!;
  const items = declaration.single
    ? [parseRecord(declaration.item, (await request(declaration.listing)).body, `${kind} object`)]
    : await collectAllPages(request, declaration.listing, declaration.item, { what: `${kind} objects` });
  progress(`${kind}: ${items.length} listed`);
  return (items as Array<Record<string, unknown>>)
    .map((record) => ({ kind, id: String(record.id), record, label: declaration.name(record) }))
    .sort((a, b) => Number(a.id) - Number(b.id));
}

/** Runs `task` on every item, `limit` at a time, keeping the order. */
export async function eachLimited<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

async function completed(request: RequestFn, listed: Listed[], options: ReadOptions): Promise<Listed[]> {
  const progress = options.progress ?? (() => {});
  // One export is one user's reading: who they are is asked once.
  const settings: SettingsUse = { request, learned: newSettingsMemory() };
  let done = 0;
  return eachLimited(listed, options.concurrency ?? 4, async (item) => {
    const complete = declarationOf(item.kind)!.complete;
    if (complete === undefined) return item;
    const record = (await complete(settings, item.record)) as Record<string, unknown>;
    done += 1;
    if (done % 50 === 0) progress(`${item.kind}: ${done} read in full`);
    return { ...item, record };
  });
}

/** Why an object stays out of the program, if it does: it belongs to another object, or cannot be declared. */
function reasonLeftOut(item: Listed, owners: Map<string, string>): string | undefined {
  const owner = owners.get(`${item.kind}:${item.id}`);
  if (owner !== undefined) return `made by the service for a ${owner}, and managed through it`;
  return declarationOf(item.kind)!.unrepresentable?.(item.record as never);
}

function ownersOf(listed: Listed[]): Map<string, string> {
  const owners = new Map<string, string>();
  for (const item of listed) {
    for (const owned of declarationOf(item.kind)!.owns?.(item.record as never) ?? []) owners.set(`${owned.kind}:${owned.id}`, item.kind);
  }
  return owners;
}

export async function readAccount(request: RequestFn, options: ReadOptions): Promise<AccountExport> {
  const progress = options.progress ?? (() => {});
  const listed: Listed[] = [];
  for (const kind of options.kinds) listed.push(...(await listKind(request, kind, progress)));
  const owners = ownersOf(listed);
  const leftOut: LeftOut[] = [];
  const named = listed.filter(
    (item) =>
      (options.namePrefix === undefined || item.label.startsWith(options.namePrefix)) &&
      (options.keep?.({ kind: item.kind, id: item.id, name: item.label }) ?? true),
  );
  const kept = keptOrLeftOut(named, leftOut, (item) => reasonLeftOut(item, owners));
  // What only the whole record shows (a cluster's watch: whose it is) is asked again once read.
  const whole = keptOrLeftOut(await completed(request, kept, options), leftOut, (item) => declarationOf(item.kind)!.unrepresentable?.(item.record as never));
  return objectsOf(whole, leftOut);
}

/** The items with no reason to leave them out; the others go to `leftOut` with theirs. */
function keptOrLeftOut(items: Listed[], leftOut: LeftOut[], reasonOf: (item: Listed) => string | undefined): Listed[] {
  return items.filter((item) => {
    const reason = reasonOf(item);
    if (reason !== undefined) leftOut.push({ kind: item.kind, id: item.id, name: item.label, reason });
    return reason === undefined;
  });
}

function objectsOf(items: Listed[], leftOut: LeftOut[]): AccountExport {
  const names = logicalNames(items);
  const variables = uniqueVariables(items, names);
  const settings: AccountExport["settings"] = [];
  const files: FileText[] = [];
  const objects = items.map((item): ExportedObject => {
    const key = `${item.kind}:${item.id}`;
    const variable = variables.get(key)!;
    const configured = (what: string, secret: boolean) => {
      const name = `${variable}${what.charAt(0).toUpperCase()}${what.slice(1)}`;
      settings.push({ name, object: `${item.kind} ${item.id} (${item.label})`, what, secret });
      return new ConfigValue(name, secret);
    };
    const context: ExportContext = {
      reference: (kind, id) => (variables.has(`${kind}:${id}`) ? new ResourceReference(kind, String(id)) : id),
      secret: (what) => configured(what, true),
      setting: (what) => configured(what, false),
      file: (folder, extension, content) => {
        const file = new FileText(`${folder}/${names.get(key)}.${extension}`, content);
        files.push(file);
        return file;
      },
    };
    return { kind: item.kind, id: item.id, name: names.get(key)!, variable, inputs: inputsOf(item, context) };
  });
  return { objects, leftOut, settings, files };
}

/** Variable names by `kind:id`; two names that spell alike (`db-2`, `db2`) are told apart by id. */
function uniqueVariables(items: Listed[], names: Map<string, string>): Map<string, string> {
  const variables = new Map<string, string>();
  const taken = new Set<string>();
  for (const item of items) {
    const key = `${item.kind}:${item.id}`;
    const plain = variableName(item.kind, names.get(key)!);
    const variable = taken.has(plain) ? `${plain}Id${item.id}` : plain;
    taken.add(variable);
    variables.set(key, variable);
  }
  return variables;
}

/** The inputs an import by id rebuilds, less the ones left at "not set", with the kind's additions. */
function inputsOf(item: Listed, context: ExportContext): Record<string, unknown> {
  const { tableOperations } = RESOURCES[item.kind];
  const rebuilt = (tableOperations.readResult(item.id, item.record as never, {} as never).inputs ?? {}) as Record<string, unknown>;
  const set = Object.fromEntries(Object.entries(rebuilt).filter(([, value]) => value !== null && value !== undefined));
  return declarationOf(item.kind)!.inputs?.(set, item.record as never, context) ?? set;
}
