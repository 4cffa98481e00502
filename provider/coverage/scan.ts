/**
 * What the account holds of every kind that outlives a run, read as `etl-export` reads it: each
 * kind's listing (its export declaration), page by page, GETs only. Clusters are listed once,
 * for themselves and for the watches: a watch has no listing, so each cluster still running
 * costs one read of its watchers. Job runs (a record of what ran) and the account itself are out.
 */
import { z } from "zod";
import { ENDING_CLUSTER_STATUSES } from "../../contract/vocabularies";
import { parseRecord } from "../api/records";
import type { RequestFn } from "../client/http";
import { collectAllPages } from "../client/pagination";
import { newSettingsMemory, type SettingsUse } from "../context";
import { eachLimited } from "../export/read";
import { RESOURCE_KINDS, RESOURCES, type ResourceKind } from "../resources/registry";
import { isExportable, type ExportDeclaration } from "../resources/shared/exported";
import type { ServiceObject } from "./report";

/** The kinds a coverage report holds, in the registry's order. */
export const COVERAGE_KINDS: ResourceKind[] = RESOURCE_KINDS.filter((kind) => kind !== "Account" && kind !== "JobRun");

export interface AccountScan {
  objects: ServiceObject[];
  /** The API key's user: whose settings and watches the listing shows. */
  userId: string | undefined;
}

const listedCluster = z.object({ id: z.number().int(), name: z.string().nullish(), status: z.string(), owner_id: z.number().int().nullish() }).loose();
type ListedCluster = z.output<typeof listedCluster>;

const CLUSTERS = { method: "GET", path: "/clusters", query: { direction: "asc", limit: 100 } } as const;

function exportOf(kind: ResourceKind): ExportDeclaration {
  const declared = RESOURCES[kind].export;
  if (!isExportable(declared)) throw new Error(`${kind} has no listing`);
  return declared;
}

async function listed(request: RequestFn, declaration: ExportDeclaration, kind: string): Promise<Array<Record<string, unknown>>> {
  const items = declaration.single
    ? [parseRecord(declaration.item, (await request(declaration.listing)).body, `${kind} object`)]
    : await collectAllPages(request, declaration.listing, declaration.item, { what: `${kind} objects` });
  return items as Array<Record<string, unknown>>;
}

/** A kind listed through its export declaration; what it owns of other kinds goes into `owned`. */
async function listKind(request: RequestFn, kind: ResourceKind, owned: Set<string>): Promise<ServiceObject[]> {
  const declaration = exportOf(kind);
  return (await listed(request, declaration, kind)).map((record) => {
    for (const object of declaration.owns?.(record) ?? []) owned.add(`${object.kind}:${object.id}`);
    const cannotBeDeclared = declaration.unrepresentable?.(record) !== undefined;
    return { kind, id: String(record.id), name: declaration.name(record), ...(cannotBeDeclared ? { onlyIfHeld: true } : {}) };
  });
}

/** The API key's user's watches of the clusters still running; a maker's watch comes with the cluster. */
async function watchesOf(request: RequestFn, clusters: ListedCluster[], progress: (message: string) => void): Promise<ServiceObject[]> {
  const declaration = exportOf("ClusterWatcher");
  let read = 0;
  // One scan is one user's reading: who they are is asked once.
  const settings: SettingsUse = { request, learned: newSettingsMemory() };
  const found = await eachLimited(clusters, 4, async (cluster) => {
    const record = (await declaration.complete!(settings, cluster)) as Record<string, unknown>;
    read += 1;
    if (read % 100 === 0) progress(`ClusterWatcher: watchers of ${read} of ${clusters.length} clusters read`);
    if (record.notWatched === true) return [];
    const withComesWithCluster = declaration.unrepresentable?.(record) !== undefined ? { onlyIfHeld: true } : {};
    return [{ kind: "ClusterWatcher", id: String(cluster.id), name: declaration.name(cluster), ...withComesWithCluster }];
  });
  return found.flat();
}

/** Every object of the coverage kinds, with progress by kind; only GETs. */
export async function scanAccount(request: RequestFn, progress: (message: string) => void): Promise<AccountScan> {
  const owned = new Set<string>();
  const objects: ServiceObject[] = [];
  let userId: string | undefined;
  for (const kind of COVERAGE_KINDS) {
    if (kind === "ClusterWatcher") continue;
    if (kind === "Cluster") {
      const running = (await collectAllPages(request, CLUSTERS, listedCluster, { what: "clusters" })).filter(
        (cluster) => !(ENDING_CLUSTER_STATUSES as readonly string[]).includes(cluster.status),
      );
      objects.push(...running.map((cluster) => ({ kind, id: String(cluster.id), name: cluster.name ?? "" })));
      progress(`Cluster: ${running.length} running`);
      const watches = await watchesOf(request, running, progress);
      objects.push(...watches);
      progress(`ClusterWatcher: ${watches.length} watches of the API key's user`);
      continue;
    }
    const found = await listKind(request, kind, owned);
    if (kind === "UserSettings") userId = found[0]?.id;
    objects.push(...found);
    progress(`${kind}: ${found.length} listed`);
  }
  return { objects: objects.map((object) => (owned.has(`${object.kind}:${object.id}`) ? { ...object, onlyIfHeld: true } : object)), userId };
}
