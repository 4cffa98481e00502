import { z } from "zod";
import { HttpError, notFound, sendJson } from "../http";
import { invalid, parseBody, readObjectBody } from "../body";
import { stopJob } from "../lifecycle/jobs";
import { CLUSTERS, isEnding } from "../model/clusters";
import {
  effectiveVariables,
  insertJob,
  isFinished,
  JOB_STATUSES,
  jobJson,
  jobLog,
  jobOutputJson,
  JOBS,
  jobsOfAccount,
  logUrl,
  visibleOutputs,
  type JobRow,
  type JobStatus,
  type JobView,
} from "../model/jobs";
import { PACKAGES, type PackageRow } from "../model/packages";
import { paginate } from "../pagination";
import { parseId, type ApiContext, type Route } from "../routing";
import { sortRecords, type SortKeys } from "../sorting";

/** Jobs (spec 4.1, facts "Jobs"): run, watch, stop. Time moves them on (see lifecycle). */

export const BILLING_REQUIRED_MESSAGE = "Billing information required: add a payment method before running jobs.";

function ruleFor(field: string, rule: string) {
  return { error: (issue: { input?: unknown }) => (issue.input === undefined ? `${field} is required` : `${field} ${rule}`) };
}

/** An object whose values are strings (spec 2.3); each bad value is named by its key. */
function stringValues(field: string) {
  // Within the request body the issue's path is the full one, e.g. variables.run_date.
  const valueRule = { error: (issue: { path?: PropertyKey[] }) => `${(issue.path ?? [field]).map(String).join(".")} must be a string` };
  return z.record(z.string(), z.string(valueRule), ruleFor(field, "must be an object"));
}

const createBodySchema = z.strictObject(
  {
    cluster_id: z.int(ruleFor("cluster_id", "must be a positive integer")).positive("cluster_id must be a positive integer"),
    package_id: z.int(ruleFor("package_id", "must be a positive integer")).positive("package_id must be a positive integer"),
    variables: stringValues("variables").optional(),
    dynamic_variables: stringValues("dynamic_variables").optional(),
  },
  {
    error: (issue: { code?: string; keys?: string[] }) =>
      issue.code === "unrecognized_keys" ? `unknown field${issue.keys?.length === 1 ? "" : "s"}: ${issue.keys?.join(", ")}` : undefined,
  },
);

type CreateBody = z.output<typeof createBodySchema>;

const sortKeys: SortKeys<JobRow> = {
  created: (job) => job.createdAt,
  updated: (job) => job.updatedAt,
};


function view(ctx: ApiContext): JobView {
  return { store: ctx.store, baseUrl: ctx.baseUrl, now: ctx.store.clock.now() };
}

function findJob(ctx: ApiContext): JobRow {
  const job = ctx.store.find(JOBS, ctx.caller.account.id, parseId(ctx.params[0]));
  if (job === undefined) throw notFound();
  return job;
}

// ---- run

async function readCreateBody(ctx: ApiContext): Promise<CreateBody> {
  const body = await readObjectBody(ctx.req);
  // Spec 4.1 lists 402 before 422: an account without billing runs nothing, valid or not.
  if (!ctx.caller.account.billing) throw new HttpError(402, BILLING_REQUIRED_MESSAGE);
  return parseBody(createBodySchema, body);
}

/** The cluster and package must be this account's, and able to run a job. */
function resolveReferences(ctx: ApiContext, body: CreateBody): PackageRow {
  const accountId = ctx.caller.account.id;
  const cluster = ctx.store.find(CLUSTERS, accountId, body.cluster_id);
  const pkg = ctx.store.find(PACKAGES, accountId, body.package_id);
  const problems: string[] = [];
  if (cluster === undefined) problems.push(`cluster_id ${body.cluster_id} does not name a cluster of this account`);
  else if (isEnding(cluster)) problems.push(`cluster_id ${body.cluster_id} names a cluster that is ${cluster.status}`);
  if (pkg === undefined) problems.push(`package_id ${body.package_id} does not name a package of this account`);
  else if (pkg.status !== "active") problems.push(`package_id ${body.package_id} names a package that is ${pkg.status}`);
  if (problems.length > 0 || pkg === undefined) throw invalid(problems);
  return pkg;
}

async function runJob(ctx: ApiContext): Promise<void> {
  const body = await readCreateBody(ctx);
  const pkg = resolveReferences(ctx, body);
  const { account, user } = ctx.caller;
  const fields = {
    accountId: account.id,
    ownerId: user.id,
    clusterId: body.cluster_id,
    pkg,
    variables: body.variables ?? {},
    dynamicVariables: body.dynamic_variables ?? {},
  };
  const job = insertJob(ctx.store, fields, ctx.store.clock.now());
  sendJson(ctx.res, 201, jobJson(job, view(ctx)));
}

// ---- list

function readStatus(query: URLSearchParams): JobStatus | undefined {
  const status = query.get("status") ?? "all";
  if (status === "all") return undefined;
  if (!(JOB_STATUSES as readonly string[]).includes(status)) {
    throw new HttpError(400, `status must be all or one of ${JOB_STATUSES.join(", ")}`);
  }
  return status as JobStatus;
}

function readIdParam(query: URLSearchParams, name: string): number | undefined {
  const text = query.get(name);
  if (text === null) return undefined;
  if (!/^[1-9]\d{0,14}$/.test(text)) throw new HttpError(400, `${name} must be a positive integer`);
  return Number(text);
}

const dateTime = z.iso.datetime({ offset: true });

function readSince(query: URLSearchParams): number | undefined {
  const text = query.get("since");
  if (text === null) return undefined;
  if (!dateTime.safeParse(text).success) {
    throw new HttpError(400, "since must be an ISO 8601 date-time, e.g. 2026-01-31T12:00:00Z");
  }
  return Date.parse(text);
}

function listFilter(query: URLSearchParams): (job: JobRow) => boolean {
  const status = readStatus(query);
  const packageId = readIdParam(query, "package_id");
  const clusterId = readIdParam(query, "cluster_id");
  const since = readSince(query);
  return (job) =>
    (status === undefined || job.status === status) &&
    (packageId === undefined || job.packageId === packageId) &&
    (clusterId === undefined || job.clusterId === clusterId) &&
    (since === undefined || Date.parse(job.createdAt) >= since);
}

/** Newest first unless asked otherwise (facts, "Jobs"). */
function listJobs(ctx: ApiContext): void {
  const jobs = jobsOfAccount(ctx.store, ctx.caller.account.id).filter(listFilter(ctx.query));
  const sorted = sortRecords(jobs, ctx.query, sortKeys, "desc");
  const page = paginate(sorted, ctx.query, { origin: ctx.origin, pathname: ctx.pathname });
  const jobView = view(ctx);
  sendJson(ctx.res, 200, page.items.map((job) => jobJson(job, jobView)), page.headers);
}

// ---- one job

function getJob(ctx: ApiContext): void {
  sendJson(ctx.res, 200, jobJson(findJob(ctx), view(ctx)));
}

function getVariables(ctx: ApiContext): void {
  sendJson(ctx.res, 200, effectiveVariables(findJob(ctx), ctx.store));
}

function getLog(ctx: ApiContext): void {
  const job = findJob(ctx);
  sendJson(ctx.res, 200, { body: jobLog(job, view(ctx)), url: logUrl(job, ctx.baseUrl) });
}

function getOutput(ctx: ApiContext): void {
  const job = findJob(ctx);
  const outputId = parseId(ctx.params[1]);
  const output = visibleOutputs(ctx.store, job).find((candidate) => candidate.id === outputId);
  if (output === undefined) throw notFound();
  sendJson(ctx.res, 200, jobOutputJson(output, job, view(ctx)));
}

/** Asking again while the job stops changes nothing; a finished job cannot be stopped. */
function stop(ctx: ApiContext): void {
  const job = findJob(ctx);
  if (isFinished(job)) throw invalid([`job has already finished (it is ${job.status})`]);
  stopJob(ctx.store, job, ctx.store.clock.now());
  sendJson(ctx.res, 200, jobJson(job, view(ctx)));
}

export const jobsRoutes: readonly Route[] = [
  { pattern: /^\/jobs$/, methods: { GET: listJobs, POST: runJob } },
  { pattern: /^\/jobs\/([^/]+)\/variables$/, methods: { GET: getVariables } },
  { pattern: /^\/jobs\/([^/]+)\/log$/, methods: { GET: getLog } },
  { pattern: /^\/jobs\/([^/]+)\/outputs\/([^/]+)$/, methods: { GET: getOutput } },
  { pattern: /^\/jobs\/([^/]+)$/, methods: { GET: getJob, DELETE: stop } },
];
