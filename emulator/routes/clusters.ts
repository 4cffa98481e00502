import { z } from "zod";
import { characterCount, MAX_NAME_LENGTH } from "../../contract/text";
import { isoTime } from "../clock";
import { HttpError, notFound, sendJson } from "../http";
import { invalid, parseBody, readObjectBody } from "../body";
import { terminateCluster } from "../lifecycle/clusters";
import { LifecycleState } from "../lifecycle/state";
import {
  CLUSTER_STATUSES,
  CLUSTER_TYPES,
  CLUSTERS,
  clusterJson,
  isEnding,
  setClusterStatus,
  type ClusterRow,
  type ClusterStatus,
} from "../model/clusters";
import { jobCountsByCluster, jobsOfAccount } from "../model/jobs";
import { paginate } from "../pagination";
import { parseId, type ApiContext, type Route } from "../routing";
import { sortRecords, type SortKeys } from "../sorting";

/** Clusters (facts, "Clusters"): created and changed here, moved on by their lifecycle. */

const NODES = { min: 1, max: 100 };
const TIME_TO_IDLE = { min: 300, max: 86_400 };

const DEFAULTS = {
  type: "production",
  terminateOnIdle: false,
  timeToIdle: 3600,
  region: "us-east-1",
} as const;

/** `field is required` when absent, else the rule it breaks. */
function ruleFor(field: string, rule: string) {
  return { error: (issue: { input?: unknown }) => (issue.input === undefined ? `${field} is required` : `${field} ${rule}`) };
}

function integerBetween(field: string, bounds: { min: number; max: number }) {
  const rule = `must be an integer between ${bounds.min} and ${bounds.max}`;
  return z
    .int(ruleFor(field, rule))
    .min(bounds.min, `${field} ${rule}`)
    .max(bounds.max, `${field} ${rule}`);
}

function text(field: string) {
  return z
    .string(ruleFor(field, "must be a string"))
    .refine((value) => value.trim() !== "", `${field} must not be blank`)
    .refine((value) => characterCount(value) <= MAX_NAME_LENGTH, `${field} must be at most ${MAX_NAME_LENGTH} characters`);
}

const unknownFields = {
  error: (issue: { code?: string; keys?: string[] }) =>
    issue.code === "unrecognized_keys" ? `unknown field${issue.keys?.length === 1 ? "" : "s"}: ${issue.keys?.join(", ")}` : undefined,
};

const changeableFields = {
  name: text("name").optional(),
  description: z.string(ruleFor("description", "must be a string")).nullable().optional(),
  terminate_on_idle: z.boolean(ruleFor("terminate_on_idle", "must be a boolean")).optional(),
  time_to_idle: integerBetween("time_to_idle", TIME_TO_IDLE).optional(),
  type: z.enum(CLUSTER_TYPES, ruleFor("type", `must be one of ${CLUSTER_TYPES.join(", ")}`)).optional(),
  region: text("region").optional(),
};

const createBodySchema = z.strictObject({ ...changeableFields, nodes: integerBetween("nodes", NODES) }, unknownFields);
const updateBodySchema = z.strictObject({ ...changeableFields, nodes: integerBetween("nodes", NODES).optional() }, unknownFields);

type UpdateBody = z.output<typeof updateBodySchema>;

const sortKeys: SortKeys<ClusterRow> = {
  created: (cluster) => cluster.createdAt,
  updated: (cluster) => cluster.updatedAt,
  name: (cluster) => cluster.name,
};

function checkSandboxNodes(type: string, nodes: number | undefined): void {
  if (type === "sandbox" && nodes !== undefined && nodes !== 1) throw invalid(["nodes must be 1 for a sandbox cluster"]);
}

function findCluster(ctx: ApiContext): ClusterRow {
  const cluster = ctx.store.find(CLUSTERS, ctx.caller.account.id, parseId(ctx.params[0]));
  if (cluster === undefined) throw notFound();
  return cluster;
}

function sendClusters(ctx: ApiContext, status: number, clusters: ClusterRow[], headers: { Link?: string } = {}): void {
  const counts = jobCountsByCluster(jobsOfAccount(ctx.store, ctx.caller.account.id));
  const json = clusters.map((cluster) => clusterJson(cluster, counts.get(cluster.id) ?? { running: 0, queued: 0 }, ctx.baseUrl));
  sendJson(ctx.res, status, json, headers);
}

function sendCluster(ctx: ApiContext, status: number, cluster: ClusterRow): void {
  const counts = jobCountsByCluster(jobsOfAccount(ctx.store, ctx.caller.account.id));
  sendJson(ctx.res, status, clusterJson(cluster, counts.get(cluster.id) ?? { running: 0, queued: 0 }, ctx.baseUrl));
}

async function createCluster(ctx: ApiContext): Promise<void> {
  const body = parseBody(createBodySchema, await readObjectBody(ctx.req));
  const type = body.type ?? DEFAULTS.type;
  checkSandboxNodes(type, body.nodes);
  const now = isoTime(ctx.store.clock.now());
  const cluster = ctx.store.insert(CLUSTERS, {
    accountId: ctx.caller.account.id,
    ownerId: ctx.caller.user.id,
    name: body.name ?? "",
    description: body.description ?? "",
    type,
    nodes: body.nodes,
    region: body.region ?? DEFAULTS.region,
    terminateOnIdle: body.terminate_on_idle ?? DEFAULTS.terminateOnIdle,
    timeToIdle: body.time_to_idle ?? DEFAULTS.timeToIdle,
    status: "pending",
    statusSince: now,
    createdAt: now,
    updatedAt: now,
    availableSince: null,
    idleSince: null,
    terminatedAt: null,
    lastJobEndedAt: null,
  });
  // The default name needs the id, which exists only once the row does.
  if (body.name === undefined) ctx.store.update(CLUSTERS, cluster, { name: `cluster-${cluster.id}` });
  sendCluster(ctx, 201, cluster);
}

function readStatusFilter(query: URLSearchParams): ClusterStatus | undefined {
  const status = query.get("status");
  if (status === null || status === "all") return undefined;
  if (!(CLUSTER_STATUSES as readonly string[]).includes(status)) {
    throw new HttpError(400, `status must be all or one of ${CLUSTER_STATUSES.join(", ")}`);
  }
  return status as ClusterStatus;
}

function listClusters(ctx: ApiContext): void {
  const status = readStatusFilter(ctx.query);
  const clusters = ctx.store.list(CLUSTERS, ctx.caller.account.id).filter((c) => status === undefined || c.status === status);
  const page = paginate(sortRecords(clusters, ctx.query, sortKeys), ctx.query, { origin: ctx.origin, pathname: ctx.pathname });
  sendClusters(ctx, 200, page.items, page.headers);
}

function getCluster(ctx: ApiContext): void {
  sendCluster(ctx, 200, findCluster(ctx));
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
  if (cluster.status === "available" || cluster.status === "idle" || cluster.status === "scaling") {
    setClusterStatus(ctx.store, cluster, "scaling", now);
  }
}

async function updateCluster(ctx: ApiContext): Promise<void> {
  const raw = await readObjectBody(ctx.req);
  const cluster = findCluster(ctx);
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
  const cluster = findCluster(ctx);
  if (cluster.status === "terminated") throw invalid([`cluster ${cluster.id} is already terminated`]);
  if (!isEnding(cluster)) terminateCluster(new LifecycleState(ctx.store), cluster, ctx.store.clock.now());
  sendCluster(ctx, 200, cluster);
}

export const clustersRoutes: readonly Route[] = [
  { pattern: /^\/clusters$/, methods: { GET: listClusters, POST: createCluster } },
  { pattern: /^\/clusters\/([^/]+)$/, methods: { GET: getCluster, PUT: updateCluster, DELETE: deleteCluster } },
];
