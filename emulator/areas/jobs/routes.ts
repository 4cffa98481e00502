import { z } from "zod";
import { JOB_STATUSES } from "../../../contract/vocabularies";
import { invalid, parseBody, readObjectBody } from "../../body";
import { positiveInteger, stringMap } from "../../fields";
import { HttpError, notFound, sendJson } from "../../http";
import { sendPage } from "../../pagination";
import { readIdFilter, readStatusFilter, readTimeFilter } from "../../query";
import { findOwnRow, parseId, type ApiContext, type Route } from "../../routing";
import { sortRecords, type SortKeys } from "../../sorting";
import { clusterFacts, isEnding } from "../clusters/interface";
import { jobRunOf, packageRunRefusal, type PackageRun } from "../packages/interface";
import { BILLING_REQUIRED_MESSAGE } from "./interface";
import { effectiveVariables, jobJson, jobOutputJson, logUrl, type JobView } from "./json";
import { stopJob } from "./lifecycle";
import { jobLog } from "./log";
import { jobWatcherRoute } from "./watchers";
import { insertJob, isFinished, JOBS, jobsOfAccount, visibleOutputs, type JobRow } from "./model";

/** Jobs (spec 4.1, facts "Jobs"): run, watch, stop. Time moves them on (see lifecycle). */

/** JobCreate (spec 2.3). */
const createBodySchema = z.strictObject({
  cluster_id: positiveInteger(),
  package_id: positiveInteger(),
  variables: stringMap().optional(),
  dynamic_variables: stringMap().optional(),
});

type CreateBody = z.output<typeof createBodySchema>;

const sortKeys: SortKeys<JobRow> = {
  created: (job) => job.createdAt,
  updated: (job) => job.updatedAt,
};

function view(ctx: ApiContext): JobView {
  return { store: ctx.store, baseUrl: ctx.baseUrl, now: ctx.store.clock.now() };
}

// ---- run

async function readCreateBody(ctx: ApiContext): Promise<CreateBody> {
  const body = await readObjectBody(ctx.req);
  // Spec 4.1 lists 402 before 422: an account without billing runs nothing, valid or not.
  if (!ctx.caller.account.billing) throw new HttpError(402, BILLING_REQUIRED_MESSAGE);
  return parseBody(createBodySchema, body);
}

/** The cluster and package must be this account's, and able to run a job. */
function resolveReferences(ctx: ApiContext, body: CreateBody): PackageRun {
  const accountId = ctx.caller.account.id;
  const cluster = clusterFacts(ctx.store, accountId, body.cluster_id);
  const refusal = packageRunRefusal(ctx.store, accountId, body.package_id);
  const problems: string[] = [];
  if (cluster === undefined) problems.push(`cluster_id ${body.cluster_id} does not name a cluster of this account`);
  else if (isEnding(cluster)) problems.push(`cluster_id ${body.cluster_id} names a cluster that is ${cluster.status}`);
  if (refusal !== undefined) problems.push(`package_id ${refusal}`);
  const run = jobRunOf(ctx.store, accountId, body.package_id);
  if (problems.length > 0 || run === undefined) throw invalid(problems);
  return run;
}

async function runJob(ctx: ApiContext): Promise<void> {
  const body = await readCreateBody(ctx);
  const run = resolveReferences(ctx, body);
  const { account, user } = ctx.caller;
  const fields = {
    accountId: account.id,
    ownerId: user.id,
    clusterId: body.cluster_id,
    packageId: body.package_id,
    run,
    variables: body.variables ?? {},
    dynamicVariables: body.dynamic_variables ?? {},
  };
  const job = insertJob(ctx.store, fields, ctx.store.clock.now());
  sendJson(ctx.res, 201, jobJson(job, view(ctx)));
}

// ---- list

function listFilter(query: URLSearchParams): (job: JobRow) => boolean {
  const status = readStatusFilter(query, JOB_STATUSES);
  const packageId = readIdFilter(query, "package_id");
  const clusterId = readIdFilter(query, "cluster_id");
  const since = readTimeFilter(query, "since");
  return (job) =>
    (status === undefined || job.status === status) &&
    (packageId === undefined || job.packageId === packageId) &&
    (clusterId === undefined || job.clusterId === clusterId) &&
    (since === undefined || Date.parse(job.createdAt) >= since);
}

/** Newest first unless asked otherwise (facts, "Jobs"). */
function listJobs(ctx: ApiContext): void {
  const jobs = jobsOfAccount(ctx.store, ctx.caller.account.id).filter(listFilter(ctx.query));
  const jobView = view(ctx);
  sendPage(ctx, sortRecords(jobs, ctx.query, sortKeys, "desc"), (job) => jobJson(job, jobView));
}

// ---- one job

function getJob(ctx: ApiContext): void {
  sendJson(ctx.res, 200, jobJson(findOwnRow(ctx, JOBS), view(ctx)));
}

function getVariables(ctx: ApiContext): void {
  sendJson(ctx.res, 200, effectiveVariables(findOwnRow(ctx, JOBS), ctx.store));
}

function getLog(ctx: ApiContext): void {
  const job = findOwnRow(ctx, JOBS);
  sendJson(ctx.res, 200, { body: jobLog(job, view(ctx)), url: logUrl(job, ctx.baseUrl) });
}

function getOutput(ctx: ApiContext): void {
  const job = findOwnRow(ctx, JOBS);
  const outputId = parseId(ctx.params[1]);
  const output = visibleOutputs(ctx.store, job).find((candidate) => candidate.id === outputId);
  if (output === undefined) throw notFound();
  sendJson(ctx.res, 200, jobOutputJson(output, job, view(ctx)));
}

/** Asking again while the job stops changes nothing; a finished job cannot be stopped. */
function stop(ctx: ApiContext): void {
  const job = findOwnRow(ctx, JOBS);
  if (isFinished(job)) throw invalid([`job has already finished (it is ${job.status})`]);
  stopJob(ctx.store, job, ctx.store.clock.now());
  sendJson(ctx.res, 200, jobJson(job, view(ctx)));
}

export const jobsRoutes: readonly Route[] = [
  { pattern: /^\/jobs$/, methods: { GET: listJobs, POST: runJob } },
  { pattern: /^\/jobs\/([^/]+)\/variables$/, methods: { GET: getVariables } },
  { pattern: /^\/jobs\/([^/]+)\/log$/, methods: { GET: getLog } },
  jobWatcherRoute,
  { pattern: /^\/jobs\/([^/]+)\/outputs\/([^/]+)$/, methods: { GET: getOutput } },
  { pattern: /^\/jobs\/([^/]+)$/, methods: { GET: getJob, DELETE: stop } },
];
