import { z } from "zod";
import { CLUSTER_NODES, CLUSTER_TIME_TO_IDLE_SECONDS, SANDBOX_CLUSTER_NODES } from "../../../contract/limits";
import { CLUSTER_STATUSES, CLUSTER_TYPES } from "../../../contract/vocabularies";
import { invalid, parseBody, readObjectBody } from "../../body";
import { isoTime } from "../../clock";
import { boolean, integerBetween, label, nullableText } from "../../fields";
import { sendJson } from "../../http";
import { LifecycleState } from "../../lifecycle/state";
import { sendPage } from "../../pagination";
import { readStatusFilter, readTimeFilter } from "../../query";
import { findOwnRow, type ApiContext, type Route } from "../../routing";
import { sortRecords, type SortKeys } from "../../sorting";
import { jobCountsOfAccount } from "../jobs/interface";
import { terminateCluster } from "./lifecycle";
import { clusterWatcherRoute } from "./watchers";
import { CLUSTER_DEFAULTS, clusterJson, CLUSTERS, insertCluster, isEnding, isReady, NO_JOBS, setClusterStatus, type ClusterRow } from "./model";

/** Clusters (facts, "Clusters"): created and changed here, moved on by their lifecycle. */

const changeableFields = {
  name: label().optional(),
  description: nullableText().optional(),
  terminate_on_idle: boolean().optional(),
  time_to_idle: integerBetween(CLUSTER_TIME_TO_IDLE_SECONDS).optional(),
  type: z.enum(CLUSTER_TYPES).optional(),
  region: label().optional(),
};

const createBodySchema = z.strictObject({ ...changeableFields, nodes: integerBetween(CLUSTER_NODES) });
const updateBodySchema = z.strictObject({ ...changeableFields, nodes: integerBetween(CLUSTER_NODES).optional() });

type UpdateBody = z.output<typeof updateBodySchema>;

const sortKeys: SortKeys<ClusterRow> = {
  created: (cluster) => cluster.createdAt,
  updated: (cluster) => cluster.updatedAt,
  name: (cluster) => cluster.name,
};

function checkSandboxNodes(type: string, nodes: number | undefined): void {
  if (type === "sandbox" && nodes !== undefined && nodes !== SANDBOX_CLUSTER_NODES) {
    throw invalid([`nodes must be ${SANDBOX_CLUSTER_NODES} for a sandbox cluster`]);
  }
}

/** Clusters as JSON, with the job counts of the caller's account counted once. */
function clusterJsonFor(ctx: ApiContext): (cluster: ClusterRow) => Record<string, unknown> {
  const counts = jobCountsOfAccount(ctx.store, ctx.caller.account.id);
  return (cluster) => clusterJson(cluster, counts.get(cluster.id) ?? NO_JOBS, ctx.baseUrl);
}

function sendCluster(ctx: ApiContext, status: number, cluster: ClusterRow): void {
  sendJson(ctx.res, status, clusterJsonFor(ctx)(cluster));
}

async function createCluster(ctx: ApiContext): Promise<void> {
  const body = parseBody(createBodySchema, await readObjectBody(ctx.req));
  const type = body.type ?? CLUSTER_DEFAULTS.type;
  checkSandboxNodes(type, body.nodes);
  const cluster = insertCluster(ctx.store, {
    accountId: ctx.caller.account.id,
    ownerId: ctx.caller.user.id,
    name: body.name ?? "",
    description: body.description ?? "",
    type,
    nodes: body.nodes,
    region: body.region ?? CLUSTER_DEFAULTS.region,
    terminateOnIdle: body.terminate_on_idle ?? CLUSTER_DEFAULTS.terminateOnIdle,
    timeToIdle: body.time_to_idle ?? CLUSTER_DEFAULTS.timeToIdle,
    status: "pending",
  });
  // The default name needs the id, which exists only once the row does.
  if (body.name === undefined) ctx.store.update(CLUSTERS, cluster, { name: `cluster-${cluster.id}` });
  sendCluster(ctx, 201, cluster);
}

/** `since`: made at or after that time, as the jobs' listing (facts: the collections' common parameters). */
function listClusters(ctx: ApiContext): void {
  const status = readStatusFilter(ctx.query, CLUSTER_STATUSES);
  const since = readTimeFilter(ctx.query, "since");
  const clusters = ctx.store
    .list(CLUSTERS, ctx.caller.account.id)
    .filter((c) => (status === undefined || c.status === status) && (since === undefined || Date.parse(c.createdAt) >= since));
  sendPage(ctx, sortRecords(clusters, ctx.query, sortKeys), clusterJsonFor(ctx));
}

function getCluster(ctx: ApiContext): void {
  sendCluster(ctx, 200, findOwnRow(ctx, CLUSTERS));
}

function checkUpdate(cluster: ClusterRow, body: UpdateBody): void {
  if (isEnding(cluster)) throw invalid([`cluster ${cluster.id} is ${cluster.status} and cannot be updated`]);
  const problems: string[] = [];
  if (body.type !== undefined && body.type !== cluster.type) problems.push(`type cannot be changed (it is ${cluster.type})`);
  if (body.region !== undefined && body.region !== cluster.region) problems.push(`region cannot be changed (it is ${cluster.region})`);
  if (problems.length > 0) throw invalid(problems);
  checkSandboxNodes(cluster.type, body.nodes);
}

/** New nodes take a ready cluster through scaling; one still being created just gets them. */
function applyNodes(ctx: ApiContext, cluster: ClusterRow, nodes: number | undefined, now: number): void {
  if (nodes === undefined || nodes === cluster.nodes) return;
  ctx.store.update(CLUSTERS, cluster, { nodes });
  if (isReady(cluster) || cluster.status === "scaling") setClusterStatus(ctx.store, cluster, "scaling", now);
}

async function updateCluster(ctx: ApiContext): Promise<void> {
  const raw = await readObjectBody(ctx.req);
  const cluster = findOwnRow(ctx, CLUSTERS);
  const body = parseBody(updateBodySchema, raw);
  checkUpdate(cluster, body);
  const now = ctx.store.clock.now();
  ctx.store.update(CLUSTERS, cluster, {
    name: body.name ?? cluster.name,
    description: body.description === undefined ? cluster.description : (body.description ?? ""),
    terminateOnIdle: body.terminate_on_idle ?? cluster.terminateOnIdle,
    timeToIdle: body.time_to_idle ?? cluster.timeToIdle,
    updatedAt: isoTime(now),
  });
  applyNodes(ctx, cluster, body.nodes, now);
  sendCluster(ctx, 200, cluster);
}

/** Asking again while it terminates changes nothing; a terminated cluster cannot be asked. */
function deleteCluster(ctx: ApiContext): void {
  const cluster = findOwnRow(ctx, CLUSTERS);
  if (cluster.status === "terminated") throw invalid([`cluster ${cluster.id} is already terminated`]);
  if (!isEnding(cluster)) terminateCluster(new LifecycleState(ctx.store), cluster, ctx.store.clock.now());
  sendCluster(ctx, 200, cluster);
}

export const clustersRoutes: readonly Route[] = [
  clusterWatcherRoute,
  { pattern: /^\/clusters$/, methods: { GET: listClusters, POST: createCluster } },
  { pattern: /^\/clusters\/([^/]+)$/, methods: { GET: getCluster, PUT: updateCluster, DELETE: deleteCluster } },
];
