/**
 * Inputs that name another object of the service by its id (a schedule's packages, a job's
 * cluster, a group's connections, a package's alert hook) say so in their field table
 * (`refersTo`), and `up` makes nothing from an id that names nothing: it fails naming the input
 * (`alertHookId 999999: no hook with this id in account acme`). How, by what the service does:
 * - it refuses such an id itself (a schedule's package: 422, nothing made): nothing is read
 *   beforehand; only when it refuses are the ids read, to say which input names nothing;
 * - it takes any id (an alert hook, which it never sees; the connections of a package's flow or
 *   template, which it leaves to the validation): what they name is read before anything is sent.
 * Ids are read on a create and on an update that names new ones, never on a refresh or an
 * unchanged `up`, nor at preview, which calls nothing. Each object is read once per operation,
 * and a kind's own checks of the same objects (a flow's connection types) take those reads.
 */
import { getCluster } from "../../api/clusters";
import { getConnectionById } from "../../api/connections";
import { getHook } from "../../api/hooks";
import { getPackage, listPackageTemplates } from "../../api/packages";
import { BadRequestError, NotFoundError, ValidationError } from "../../client/errors";
import type { RequestFn } from "../../client/http";
import type { OperationContext } from "../../context";
import { UserFacingError } from "../../errors";
import { ENDING_CLUSTER_STATUSES } from "../../../contract/vocabularies";
import { isUnknown } from "./check";
import { unlessGone } from "./gone";

interface Target {
  noun: string;
  /** The object, or undefined when the account has none of this id. */
  find(request: RequestFn, id: number): Promise<unknown>;
  /** Why an object that exists cannot be named here, if it cannot. */
  unusable?(record: never): string | undefined;
}

const TARGETS = {
  hook: { noun: "hook", find: (request, id) => unlessGone(getHook(request, id)) },
  package: {
    noun: "package",
    find: (request, id) => unlessGone(getPackage(request, id)),
    // The service's delete archives a package; an archived one runs nothing.
    unusable: (record: { status?: string }) => (record.status === "archived" ? "is archived" : undefined),
  },
  cluster: {
    noun: "cluster",
    find: (request, id) => unlessGone(getCluster(request, id)),
    unusable: (record: { status: string }) => ((ENDING_CLUSTER_STATUSES as readonly string[]).includes(record.status) ? `is ${record.status}` : undefined),
  },
  connection: { noun: "connection", find: (request, id) => unlessGone(getConnectionById(request, id)) },
  packageTemplate: { noun: "package template", find: async (request, id) => (await listPackageTemplates(request)).find((template) => template.id === id) },
} as const satisfies Record<string, Target>;

export type ReferencedObject = keyof typeof TARGETS;

/** What a field table says of an input that names other objects. */
export interface FieldReference {
  to: ReferencedObject;
  /** Where in the input's value the ids are, as a dot path (`*` for each item of a list); the value itself when left out. */
  at?: string;
  /** The service refuses a create or update whose id names nothing, and makes nothing. */
  checkedByService?: true;
  /** The list is kept in id order, not the program's: an item is named by the list and its id, not by its position. */
  inIdOrder?: true;
}

/** A reference of a table: the dot path from the inputs. */
export interface InputReference {
  path: string;
  to: ReferencedObject;
  checkedByService: boolean;
  inIdOrder: boolean;
}

export function inputReference(name: string, reference: FieldReference): InputReference {
  return {
    path: reference.at === undefined ? name : `${name}.${reference.at}`,
    to: reference.to,
    checkedByService: reference.checkedByService === true,
    inIdOrder: reference.inIdOrder === true,
  };
}

interface NamedId {
  /** The input, as a check failure names it (items by index): `task.packages.0.packageId`. */
  at: string;
  id: number;
}

function idOf(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  if (typeof value === "string" && !isUnknown(value) && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

/**
 * The ids the values give at a reference's path; values not known yet are left out. Items of a
 * list are named by their index, or (`inIdOrder`) by the list alone: `connections 302`.
 */
export function idsAt(values: unknown, path: string, inIdOrder = false): NamedId[] {
  const walk = (value: unknown, keys: string[], at: string): NamedId[] => {
    if (keys.length === 0) {
      const id = idOf(value);
      return id === undefined ? [] : [{ at, id }];
    }
    const [key, ...rest] = keys as [string, ...string[]];
    const within = (name: string | number) => (at === "" ? String(name) : `${at}.${name}`);
    if (key === "*") {
      if (!Array.isArray(value)) return [];
      const items = value.flatMap((item, index) => walk(item, rest, within(index)));
      return inIdOrder ? items.map(({ id }) => ({ at, id })) : items;
    }
    if (value === null || typeof value !== "object") return [];
    return walk((value as Record<string, unknown>)[key], rest, within(key));
  };
  return walk(values, path.split("."), "");
}

/** The objects one create or update reads, each once, whichever check asks for it. */
export interface ReferenceReads {
  /** The object, or undefined when the account has none of this id. */
  find(to: ReferencedObject, id: number): Promise<unknown>;
}

export function referenceReads(request: RequestFn): ReferenceReads {
  const reads = new Map<string, Promise<unknown>>();
  return {
    find(to, id) {
      const key = `${to}:${id}`;
      if (!reads.has(key)) reads.set(key, (TARGETS[to] as Target).find(request, id));
      return reads.get(key)!;
    },
  };
}

export class MissingReferenceError extends UserFacingError {
  constructor(readonly problems: string[]) {
    super(problems.join("; "));
    this.name = "MissingReferenceError";
  }
}

/**
 * Why each id the new values name, and the old ones did not, cannot be used: it names nothing in
 * the account, or an object that cannot play the part. Each object is read once.
 */
async function problemsOf(
  ctx: OperationContext,
  references: readonly InputReference[],
  news: unknown,
  olds: unknown,
  reads: ReferenceReads = referenceReads(ctx.request),
): Promise<string[]> {
  const named = references.flatMap((reference) => {
    const before = new Set(olds === undefined ? [] : idsAt(olds, reference.path).map(({ id }) => id));
    return idsAt(news, reference.path, reference.inIdOrder)
      .filter(({ id }) => !before.has(id))
      .map((given) => ({ ...given, to: reference.to, target: TARGETS[reference.to] as Target }));
  });
  const problems = await Promise.all(
    named.map(async ({ at, id, to, target }) => {
      const record = await reads.find(to, id);
      if (record === undefined) return `${at} ${id}: no ${target.noun} with this id in account ${ctx.settings.accountId}`;
      const why = target.unusable?.(record as never);
      return why === undefined ? undefined : `${at} ${id}: ${target.noun} ${id} ${why}`;
    }),
  );
  return problems.filter((problem) => problem !== undefined);
}

/**
 * Before anything is sent: ids of inputs the service would take whatever they name (`olds`: the
 * ids already there are not read again; `reads`: the operation's, for its other checks to share).
 */
export async function refuseMissingReferences(
  ctx: OperationContext,
  references: readonly InputReference[],
  news: unknown,
  olds?: unknown,
  reads?: ReferenceReads,
): Promise<void> {
  const problems = await problemsOf(
    ctx,
    references.filter((reference) => !reference.checkedByService),
    news,
    olds,
    reads,
  );
  if (problems.length > 0) throw new MissingReferenceError(problems);
}

/**
 * A create or update the service refused, which made nothing: when an id it checks names nothing,
 * the failure names the input; otherwise (or when the ids cannot be read) it is the service's answer.
 */
export async function explainRefusal(
  ctx: OperationContext,
  references: readonly InputReference[],
  error: unknown,
  news: unknown,
  olds?: unknown,
): Promise<never> {
  const checked = references.filter((reference) => reference.checkedByService);
  const refused = error instanceof ValidationError || error instanceof BadRequestError || error instanceof NotFoundError;
  if (!refused || checked.length === 0) throw error;
  const problems = await problemsOf(ctx, checked, news, olds).catch(() => []);
  throw problems.length > 0 ? new MissingReferenceError(problems) : error;
}
