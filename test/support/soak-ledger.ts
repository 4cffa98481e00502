/**
 * The soak's ledger: what the service holds of the soak's objects (`/_emulator/state`: the
 * accounts, and the records of the first, the one the stack's key reaches), what the stack's state says, and every disagreement between them. Each
 * kind says once where its records are, which soak resource a record belongs to, when it still
 * counts as the stack's, and what may not remain after a destroy.
 */
import { RESOURCE_KINDS, type ResourceKind } from "pulumi-etl/plugin";
import type { TestStack } from "./engine";
import { isSingleton, keyUsersWatches, type StateDump } from "./examples";
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

export interface ServiceObject {
  id: string;
  /** The soak resource it belongs to (its name; a member's email); undefined for objects of others. */
  owner: string | undefined;
  /** Whether it still exists as far as the stack is concerned. */
  live: boolean;
  status?: string;
}

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

const ENDING_CLUSTER = new Set(["pending_terminate", "terminating", "terminated"]);
const STOPPING_JOB = new Set(["pending_stoppage", "stopping"]);
const FINISHED_JOB = new Set(["completed", "failed", "stopped"]);

interface KindLedger {
  /** Its records in the state dump. */
  records(state: StateDump): any[];
  object(record: any, cycle: number): ServiceObject;
  /** What a successful destroy may not leave of a record, or undefined when it may stay. */
  leftover(record: any): string | undefined;
}

/**
 * What "live" means per kind:
 *  - PublicKey, ConnectionGroup, Connection, Schedule, Hook, Delivery: present (deletion removes the record);
 *  - Package: active (destroy archives it, and an archived package never comes back);
 *  - Member: a member of the account (removal ends the membership; the user stays);
 *  - Cluster: not terminated nor terminating; a terminating cluster counts as gone, as the
 *    provider's delete treats it (it cannot run jobs and never comes back);
 *  - JobRun: a job of this cycle's run, whatever its status (jobs cannot be deleted: a finished
 *    job stays on the service, and destroy forgets it); jobs of earlier cycles are not live;
 *  - Account: present (only the owner, the stack's key, deletes it);
 *  - UserSettings: the key's user, always there: never an orphan, and destroy leaves it.
 */
const LEDGERS: Record<Kind, KindLedger> = {
  PublicKey: {
    records: (state) => state.accounts[0]!.publicKeys ?? [],
    object: (r) => ({ id: String(r.id), owner: r.name, live: true }),
    leftover: (r) => `key ${r.id} (${r.name}) still exists`,
  },
  ConnectionGroup: {
    records: (state) => state.accounts[0]!.connectionGroups ?? [],
    object: (r) => ({ id: String(r.id), owner: r.name, live: true }),
    leftover: (r) => `group ${r.id} (${r.name}) still exists`,
  },
  Cluster: {
    records: (state) => state.accounts[0]!.clusters ?? [],
    object: (r) => ({ id: String(r.id), owner: r.name ?? undefined, live: !ENDING_CLUSTER.has(r.status), status: r.status }),
    // Terminating is not enough: destroy waits for the end.
    leftover: (r) => (r.status === "terminated" ? undefined : `cluster ${r.id} (${r.name}) is ${r.status}`),
  },
  JobRun: {
    records: (state) => state.accounts[0]!.jobs ?? [],
    object: (r, cycle) => ({ id: String(r.id), owner: r.variables?.soak_run, live: r.variables?.soak_cycle === String(cycle), status: r.status }),
    // A stop asked for and under way is enough.
    leftover: (r) =>
      FINISHED_JOB.has(r.status) || STOPPING_JOB.has(r.status)
        ? undefined
        : `job ${r.id} (${r.variables?.soak_run}, cycle ${r.variables?.soak_cycle}) is ${r.status}`,
  },
  Connection: {
    records: (state) => state.accounts[0]!.connections ?? [],
    object: (r) => ({ id: String(r.id), owner: r.name, live: true }),
    leftover: (r) => `connection ${r.id} (${r.name}) still exists`,
  },
  Schedule: {
    records: (state) => state.accounts[0]!.schedules ?? [],
    object: (r) => ({ id: String(r.id), owner: r.name, live: true }),
    leftover: (r) => `schedule ${r.id} (${r.name}) still exists`,
  },
  Hook: {
    records: (state) => state.accounts[0]!.hooks ?? [],
    object: (r) => ({ id: String(r.id), owner: r.name, live: true }),
    leftover: (r) => `hook ${r.id} (${r.name}) still exists`,
  },
  // Destroy archives a package: an archived one is no longer the stack's.
  Package: {
    records: (state) => state.accounts[0]!.packages ?? [],
    object: (r) => ({ id: String(r.id), owner: r.name, live: r.status === "active", status: r.status }),
    leftover: (r) => (r.status === "archived" ? undefined : `package ${r.id} (${r.name}) is ${r.status}`),
  },
  Delivery: {
    records: (state) => state.accounts[0]!.deliveries ?? [],
    object: (r) => ({ id: String(r.id), owner: r.name, live: true, status: r.status }),
    leftover: (r) => `delivery ${r.id} (${r.name}) still exists`,
  },
  Member: {
    records: (state) => state.accounts[0]!.users ?? [],
    object: (r) => ({ id: String(r.id), owner: r.email, live: true }),
    leftover: (r) => `${r.email} (user ${r.id}) is still a member`,
  },
  Account: {
    records: (state) => state.accounts,
    object: (r) => ({ id: String(r.id), owner: r.uid, live: true }),
    leftover: (r) => `account ${r.id} (${r.uid}) still exists`,
  },
  // The stack's user's watch of a cluster another user made.
  ClusterWatcher: {
    records: keyUsersWatches,
    object: (r) => ({ id: String(r.id), owner: `watch of cluster ${r.id}`, live: true }),
    leftover: (r) => `the stack's user still watches cluster ${r.id}`,
  },
  // The stack's key's user: the account's first.
  UserSettings: {
    records: (state) => (state.accounts[0]!.users ?? []).slice(0, 1),
    object: (r) => ({ id: String(r.id), owner: r.email, live: true }),
    leftover: () => undefined,
  },
};

export function baselineOf(state: StateDump): Baseline {
  const before = (kind: Kind) => (isSingleton(kind) ? [] : LEDGERS[kind].records(state).map((r) => String(r.id)));
  return Object.fromEntries(KINDS.map((kind) => [kind, new Set(before(kind))])) as Baseline;
}

/**
 * Adds to the baseline what the service sets up on its own for the stack's objects, which the
 * stack neither declares nor deletes: each delivery's pipeline package and cluster, and the jobs
 * deliveries and schedules start. The ids are kept once seen: a delivery's cluster outlives the
 * delivery (it ends itself when idle) and its pipeline is archived when the delivery is deleted.
 */
export function addServiceMade(baseline: Baseline, state: StateDump): void {
  const account = state.accounts[0]!;
  for (const delivery of account.deliveries ?? []) {
    if (delivery.packageId != null) baseline.Package.add(String(delivery.packageId));
    if (delivery.clusterId != null) baseline.Cluster.add(String(delivery.clusterId));
  }
  for (const job of account.jobs ?? []) {
    if (job.delivery !== undefined || job.scheduled !== undefined) baseline.JobRun.add(String(job.id));
  }
}

/** The soak's objects on the service, by kind: everything but the baseline. */
function serviceObjects(state: StateDump, baseline: Baseline, cycle: number): Record<Kind, ServiceObject[]> {
  const objectsOf = (kind: Kind) =>
    LEDGERS[kind]
      .records(state)
      .filter((r) => !baseline[kind].has(String(r.id)))
      .map((r) => LEDGERS[kind].object(r, cycle));
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
 *    job counts only while unfinished: a finished job out of state is the "finished and
 *    forgotten" case destroy leaves by design; a singleton never, the service holds it anyway;
 *  - lost: a resource in state whose object is not live on the service (for jobs: missing at
 *    all, since a finished job legitimately stays). After a failed destroy, a resource whose
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
    if (!object.live || isSingleton(kind) || stateIds.has(object.id) || (byOwner.get(object.owner ?? "")?.length ?? 0) > 1) continue;
    if (kind === "JobRun" && FINISHED_JOB.has(object.status ?? "")) continue;
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
    const gone = kind === "JobRun" ? object === undefined : object === undefined || !object.live;
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
    LEDGERS[kind]
      .records(state)
      .filter((r) => !baseline[kind].has(String(r.id)))
      .flatMap((r): Finding[] => {
        const detail = LEDGERS[kind].leftover(r);
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
