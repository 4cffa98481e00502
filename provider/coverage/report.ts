/**
 * The coverage report from what the service holds and what the stacks hold: each object's status,
 * the counts, and the share of the account under code. Pure: no calls, no files.
 *
 * - managed: one resource of one stack holds the object;
 * - unmanaged: no stack holds it;
 * - missing: a stack holds it and the service does not (deleted, archived, terminated);
 * - conflicting: two or more resources hold it, in two stacks or twice in one, each writing it;
 * - ignored: unmanaged, missing or conflicting, and named by an ignore rule.
 */
import { ruleMatching, type IgnoreRule } from "./ignore";

export const STATUSES = ["managed", "unmanaged", "missing", "conflicting", "ignored"] as const;
export type Status = (typeof STATUSES)[number];

/** An object the service holds, of a kind the provider manages. */
export interface ServiceObject {
  kind: string;
  id: string;
  name: string;
  /**
   * Reported only when a stack holds it: an object that comes with another (a delivery's package,
   * a cluster maker's watch) or that no program can declare (the account's owner).
   */
  onlyIfHeld?: boolean;
}

/** A resource of a stack that holds an object of the account. */
export interface Claim {
  kind: string;
  id: string;
  /** The object's name as the state records it, for an object the service no longer holds. */
  name?: string;
  urn: string;
  stack: string;
}

export interface CoveredObject {
  kind: string;
  id: string;
  name: string;
  status: Status;
  stacks: string[];
  urns: string[];
}

export interface Summary {
  managed: number;
  unmanaged: number;
  missing: number;
  conflicting: number;
  ignored: number;
  /** Percent of the objects the service holds, ignored ones aside, that exactly one resource manages. */
  coverage: number;
}

export interface Coverage {
  accountId: string;
  summary: Summary;
  objects: CoveredObject[];
}

const keyOf = (item: { kind: string; id: string }) => `${item.kind}:${item.id}`;

function claimsByObject(claims: readonly Claim[]): Map<string, Claim[]> {
  const byKey = new Map<string, Claim[]>();
  for (const claim of claims) {
    const held = byKey.get(keyOf(claim)) ?? [];
    // The same resource read twice (a stack given by name and as a file) is one resource.
    if (!held.some((other) => other.urn === claim.urn)) held.push(claim);
    byKey.set(keyOf(claim), held);
  }
  return byKey;
}

function statusOf(onService: boolean, holders: number): Status {
  if (!onService) return "missing";
  if (holders === 0) return "unmanaged";
  return holders === 1 ? "managed" : "conflicting";
}

function covered(kind: string, id: string, name: string, onService: boolean, held: Claim[], rules: readonly IgnoreRule[]): CoveredObject {
  const found = statusOf(onService, held.length);
  const status = found !== "managed" && ruleMatching(rules, { kind, id, name }) !== undefined ? "ignored" : found;
  return { kind, id, name, status, stacks: [...new Set(held.map((claim) => claim.stack))].sort(), urns: held.map((claim) => claim.urn).sort() };
}

/** Every object's status, in the kinds' order and then by id; `kinds` gives the order. */
export function coverageOf(
  accountId: string,
  objects: readonly ServiceObject[],
  claims: readonly Claim[],
  rules: readonly IgnoreRule[],
  kinds: readonly string[],
): Coverage {
  const byKey = claimsByObject(claims);
  const onService = new Set(objects.map(keyOf));
  const reported: CoveredObject[] = [];
  for (const object of objects) {
    const held = byKey.get(keyOf(object)) ?? [];
    if (object.onlyIfHeld && held.length === 0) continue;
    reported.push(covered(object.kind, object.id, object.name, true, held, rules));
  }
  for (const [key, held] of byKey) {
    if (onService.has(key)) continue;
    const { kind, id } = held[0]!;
    reported.push(covered(kind, id, held.find((claim) => claim.name !== undefined)?.name ?? "", false, held, rules));
  }
  const order = (kind: string) => (kinds.includes(kind) ? kinds.indexOf(kind) : kinds.length);
  reported.sort((a, b) => order(a.kind) - order(b.kind) || idOrder(a.id, b.id));
  return { accountId, summary: summaryOf(reported), objects: reported };
}

function idOrder(a: string, b: string): number {
  const numeric = Number(a) - Number(b);
  return Number.isNaN(numeric) ? a.localeCompare(b) : numeric;
}

export function countsOf(objects: readonly CoveredObject[]): Record<Status, number> {
  const counts = Object.fromEntries(STATUSES.map((status) => [status, 0])) as Record<Status, number>;
  for (const object of objects) counts[object.status] += 1;
  return counts;
}

export function summaryOf(objects: readonly CoveredObject[]): Summary {
  const counts = countsOf(objects);
  const onService = counts.managed + counts.unmanaged + counts.conflicting;
  const coverage = onService === 0 ? 100 : Math.floor((counts.managed / onService) * 1000) / 10;
  return { ...counts, coverage };
}

/** Each kind's counts, in the report's order of kinds. */
export function countsByKind(coverage: Coverage): Array<{ kind: string; counts: Record<Status, number> }> {
  const kinds = [...new Set(coverage.objects.map((object) => object.kind))];
  return kinds.map((kind) => ({ kind, counts: countsOf(coverage.objects.filter((object) => object.kind === kind)) }));
}

/** Whether anything is left to act on: the command's exit code says so. */
export function needsAction(summary: Summary): boolean {
  return summary.unmanaged + summary.missing + summary.conflicting > 0;
}
