/**
 * The soak's ledger: what the service holds of the soak's objects (`/_emulator/state`: the
 * accounts, and the records of the first, the one the stack's key reaches), what the stack's
 * state says, and every disagreement between them. Each kind's entry under test/kinds/ says
 * where its records are (`rows`), and its `soak` which soak resource a record belongs to, when it
 * still counts as the stack's, and what may not remain after a destroy.
 */
import { RESOURCE_KINDS, type ResourceKind } from "pulumi-etl/plugin";
import type { TestStack } from "./engine";
import { KIND_TESTS, type ServiceObject, type StateDump } from "../kinds";
import { isSingleton } from "./examples";
import { kindOfType } from "./surfaces";

export type Phase = "up" | "refresh" | "destroy";

export interface Discrepancy {
  cycle: number;
  phase: Phase;
  attempt: number;
  problem: "orphan" | "duplicate" | "lost" | "left-after-destroy" | "secret-leak" | "gave-up";
  kind: string;
  detail: string;
}

/** A discrepancy before it is placed in the run; `key` identifies it across checks. */
export type Finding = Omit<Discrepancy, "cycle" | "phase" | "attempt"> & { key: string };

/** Every resource kind, from the provider's one list: a kind without a ledger entry fails to compile. */
export const KINDS = RESOURCE_KINDS;
export type Kind = ResourceKind;

export interface StateResource {
  urn: string;
  name: string;
  id: string;
  /** Marked for deletion after a replacement: still the stack's to delete. */
  pendingDelete: boolean;
}

/**
 * Ids that are never the soak's: the fixtures present before it, and what the service made on its
 * own. A singleton's one object is there before the soak too, and still the stack's to take over.
 */
export type Baseline = Record<Kind, Set<string>>;

export interface CheckContext {
  cycle: number;
  phase: Phase;
  attempt: number;
  /** Whether the operation just run failed: a failed destroy may leave state behind the service. */
  failed: boolean;
}

/** Each kind's reading of its records (`rows` and `soak` of its entry under test/kinds/). */
const soakOf = (kind: Kind) => KIND_TESTS[kind].soak;
const recordsOf = (kind: Kind, state: StateDump) => KIND_TESTS[kind].rows(state);

export function baselineOf(state: StateDump): Baseline {
  const before = (kind: Kind) => (isSingleton(kind) ? [] : recordsOf(kind, state).map((r) => String(r.id)));
  return Object.fromEntries(KINDS.map((kind) => [kind, new Set(before(kind))])) as Baseline;
}

/**
 * Adds to the baseline what the service sets up on its own for the stack's objects, which the
 * stack neither declares nor deletes (each kind's `serviceMade`: a delivery's pipeline package and
 * cluster, the jobs deliveries and schedules start). The ids are kept once seen: a delivery's
 * cluster outlives the delivery (it ends itself when idle) and its pipeline is archived when the
 * delivery is deleted.
 */
export function addServiceMade(baseline: Baseline, state: StateDump): void {
  for (const kind of KINDS)
    for (const record of recordsOf(kind, state)) for (const made of soakOf(kind).serviceMade(record)) baseline[made.kind].add(String(made.id));
}

/** The soak's objects on the service, by kind: everything but the baseline. */
function serviceObjects(state: StateDump, baseline: Baseline, cycle: number): Record<Kind, ServiceObject[]> {
  const objectsOf = (kind: Kind) =>
    recordsOf(kind, state)
      .filter((r) => !baseline[kind].has(String(r.id)))
      .map((r) => soakOf(kind).object(r, cycle));
  return Object.fromEntries(KINDS.map((kind) => [kind, objectsOf(kind)])) as Record<Kind, ServiceObject[]>;
}

export async function stateResources(test: TestStack): Promise<Record<Kind, StateResource[]>> {
  const resources: any[] = (await test.stack.exportStack()).deployment?.resources ?? [];
  const byKind = Object.fromEntries(KINDS.map((kind) => [kind, [] as StateResource[]])) as Record<Kind, StateResource[]>;
  for (const r of resources) {
    const kind = kindOfType(r.type);
    if (kind === undefined || r.id === undefined || r.id === "") continue;
    byKind[kind].push({ urn: r.urn, name: String(r.urn).split("::").pop()!, id: String(r.id), pendingDelete: r.delete === true });
  }
  return byKind;
}

/**
 * Compares service and state for one kind:
 *  - duplicate: more than one live service object for one resource (for jobs: the package ran
 *    twice in one cycle for one JobRun), whether or not one of them is in state;
 *  - orphan: a live service object of the soak that is not in state and is not a duplicate. A
 *    job counts only while unfinished: a finished job out of state (`forgotten`) is the "finished
 *    and forgotten" case destroy leaves by design; a singleton never, the service holds it anyway;
 *  - lost: a resource in state whose object is not live on the service (for jobs, whose records
 *    stay, `lostOnlyWhenMissing`: missing at all). After a failed destroy, a resource whose
 *    object is already gone is the engine keeping what it could not confirm deleting, which the
 *    next destroy finishes: not counted.
 */
function compareKind(kind: Kind, objects: ServiceObject[], state: StateResource[], context: CheckContext): Finding[] {
  const found: Finding[] = [];
  const stateIds = new Set(state.map((r) => r.id));
  const byOwner = new Map<string, ServiceObject[]>();
  for (const object of objects.filter((o) => o.live && o.owner !== undefined)) {
    byOwner.set(object.owner!, [...(byOwner.get(object.owner!) ?? []), object]);
  }
  for (const [owner, list] of byOwner) {
    if (list.length > 1) {
      const ids = list.map((o) => `${o.id}${stateIds.has(o.id) ? " (in state)" : ""}${o.status ? ` ${o.status}` : ""}`);
      found.push({
        problem: "duplicate",
        kind,
        key: `duplicate|${kind}|${list.map((o) => o.id).join(",")}`,
        detail: `${owner}: ${list.length} objects on the service: ${ids.join(", ")}`,
      });
    }
  }
  for (const object of objects) {
    if (!object.live || object.forgotten || isSingleton(kind) || stateIds.has(object.id) || (byOwner.get(object.owner ?? "")?.length ?? 0) > 1) continue;
    found.push({
      problem: "orphan",
      kind,
      key: `orphan|${kind}|${object.id}`,
      detail: `${kind} ${object.id} (${object.owner ?? "unnamed"}${object.status ? `, ${object.status}` : ""}) is on the service but not in state`,
    });
  }
  const byId = new Map(objects.map((o) => [o.id, o]));
  for (const resource of state) {
    const object = byId.get(resource.id);
    const gone = object === undefined || (!object.live && !object.lostOnlyWhenMissing);
    if (!gone || (context.failed && context.phase === "destroy")) continue;
    const why = object === undefined ? "has no object on the service" : `is ${object.status} on the service`;
    found.push({ problem: "lost", kind, key: `lost|${kind}|${resource.id}`, detail: `${resource.name} (id ${resource.id}) is in state but ${why}` });
  }
  return found;
}

/**
 * After a successful destroy nothing of the stack may remain. Checked over every cycle's
 * objects, so an orphan of an earlier cycle shows here too.
 */
function leftAfterDestroy(state: StateDump, baseline: Baseline): Finding[] {
  return KINDS.flatMap((kind) =>
    recordsOf(kind, state)
      .filter((r) => !baseline[kind].has(String(r.id)))
      .flatMap((r): Finding[] => {
        const detail = soakOf(kind).leftover(r);
        return detail === undefined ? [] : [{ problem: "left-after-destroy", kind, key: `left|${kind}|${r.id}`, detail }];
      }),
  );
}

/** Every disagreement between the service's records (/_emulator/state) and the stack's state. */
export function findDiscrepancies(service: StateDump, state: Record<Kind, StateResource[]>, baseline: Baseline, context: CheckContext): Finding[] {
  const objects = serviceObjects(service, baseline, context.cycle);
  const found = KINDS.flatMap((kind) => compareKind(kind, objects[kind], state[kind], context));
  if (context.phase === "destroy" && !context.failed) found.push(...leftAfterDestroy(service, baseline));
  return found;
}
