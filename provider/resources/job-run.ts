/**
 * JobRun: one run of a package's workflow on a cluster (`{base_url}/jobs`, spec 2.1 to 4.1).
 *
 * A job cannot be changed once it runs, so whatever defines the run (cluster, package,
 * variables, triggers) replaces it: a new job runs and the old record is forgotten. A job that
 * completed is never run again by later updates. One that failed or was stopped stays in state
 * with its error, and its diff asks for a replacement (on `status`), so the next `up` runs the
 * package again. Deleting a job that has not finished stops it; a finished one is only
 * forgotten, since the API has no way to delete jobs. A run whose outcome is unknown looks for a
 * job of the package made since it was sent, on the same cluster with the same variables, before
 * running again (see reconcile.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  getJob,
  isJobFinished,
  jobRecord,
  listRecentJobsRequest,
  runJob,
  stopJob,
  type JobCreate,
  type JobOutputRecord,
  type JobRecord,
} from "../api/jobs";
import { NotFoundError, ValidationError } from "../client/errors";
import type { RequestFn } from "../client/http";
import { collectAllPages } from "../client/pagination";
import { cancelSignal, isCancelled } from "../cancellation";
import { apiRequest } from "../context";
import { resourceType, withProvider } from "../dynamic";
import type { ResourceImplementation } from "./implementation";
import { AdoptionError, importIdInput } from "./adopt";
import { checkWithSchema, objectIdInput, unlessUnknown } from "./check";
import { diffByRules, sameValue, type FieldRules } from "./diff";
import { keepingObject, lastReading, ResourceFailure, waitFailureOf } from "./failures";
import { windowStart, finishingOnCancel } from "./reconcile";
import { reconciler, type Reconciler } from "./reconciler";
import { pollUntil, progressLines, readingFrom, WaitTimeoutError } from "./wait";

export interface JobRunArgs {
  /** The cluster to run on: its id as a number or a string, such as `cluster.id`. */
  clusterId: pulumi.Input<number | string>;
  /** The package whose workflow the job performs. */
  packageId: pulumi.Input<number | string>;
  /** Static variables of the job. */
  variables?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Variables evaluated when the job runs. */
  dynamicVariables?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Any value; when it changes, the package runs again. */
  triggers?: pulumi.Input<unknown>;
  /** Whether `up` waits for the job to finish and fails when the job fails (default true). */
  waitForCompletion?: pulumi.Input<boolean>;
  /** How long `up` waits before stopping the job and failing (default 3600, at most a week). */
  timeoutSeconds?: pulumi.Input<number>;
  /** The id of an existing job to take over instead of running a new one. */
  importId?: pulumi.Input<string | number>;
}

/** Inputs after `check`: ids as numbers. */
export interface JobRunInputs {
  clusterId: number;
  packageId: number;
  variables?: Record<string, string>;
  dynamicVariables?: Record<string, string>;
  triggers?: unknown;
  waitForCompletion?: boolean;
  timeoutSeconds?: number;
  importId?: string;
}

/** One output of the job: what a program or a reviewer uses, not the service's bookkeeping. */
export interface JobRunOutput {
  id: number;
  name: string;
  recordsCount: number;
  previewUrl?: string;
}

/** How the resource waits: the inputs that never reach the service, with defaults applied. */
interface WaitSettings {
  triggers?: unknown;
  waitForCompletion: boolean;
  timeoutSeconds: number;
  importId?: string;
}

export interface JobRunOutputs extends WaitSettings {
  status: string;
  ownerId: number;
  progress: number;
  outputs: JobRunOutput[];
  variables: Record<string, unknown>;
  dynamicVariables: Record<string, unknown>;
  startedAt: string | null;
  createdAt: string;
  failedAt: string | null;
  completedAt: string | null;
  clusterId: number;
  packageId: number;
  errors: string;
  runtimeInSeconds: number;
  htmlUrl: string;
  logUrl: string | null;
}

const DEFAULTS = { waitForCompletion: true, timeoutSeconds: 3_600 } as const;
const MAX_TIMEOUT_SECONDS = 604_800;
/** A stop takes the service seconds; past this, delete and a timed-out wait stop watching it. */
const STOP_WAIT_MS = 120_000;
/** Statuses after which the package has to run again to get its result. */
const RERUN_STATUSES: readonly string[] = ["failed", "stopped"];

// ---- check

/** Spec 2.3: variable values are strings. */
const variablesSchema = z.record(z.string(), z.string());

const inputSchema = z.strictObject({
  clusterId: unlessUnknown(objectIdInput(201)),
  packageId: unlessUnknown(objectIdInput(101)),
  variables: unlessUnknown(variablesSchema).optional(),
  dynamicVariables: unlessUnknown(variablesSchema).optional(),
  triggers: z.json().optional(),
  waitForCompletion: unlessUnknown(z.boolean()).optional(),
  timeoutSeconds: unlessUnknown(z.number().min(1).max(MAX_TIMEOUT_SECONDS).refine(Number.isInteger, "must be a whole number of seconds")).optional(),
  importId: importIdInput,
});

// ---- diff

/** What defines the run replaces the job; how `up` waits is only recorded. */
const RULES: FieldRules<JobRunOutputs, JobRunInputs> = {
  clusterId: { desired: (news) => news.clusterId, current: (olds) => olds.clusterId, onChange: "replace" },
  packageId: { desired: (news) => news.packageId, current: (olds) => olds.packageId, onChange: "replace" },
  // The service records an omitted variables object as an empty one.
  variables: { desired: (news) => news.variables ?? {}, current: (olds) => olds.variables ?? {}, onChange: "replace" },
  dynamicVariables: { desired: (news) => news.dynamicVariables ?? {}, current: (olds) => olds.dynamicVariables ?? {}, onChange: "replace" },
  triggers: { desired: (news) => news.triggers, current: (olds) => olds.triggers, onChange: "replace" },
  waitForCompletion: { desired: (news) => settingsOf(news).waitForCompletion, current: (olds) => olds.waitForCompletion, onChange: "update" },
  timeoutSeconds: { desired: (news) => settingsOf(news).timeoutSeconds, current: (olds) => olds.timeoutSeconds, onChange: "update" },
};

export function needsRerun(status: string | undefined): boolean {
  return status !== undefined && RERUN_STATUSES.includes(status);
}

// ---- outputs

function settingsOf(inputs: Partial<WaitSettings>): WaitSettings {
  return {
    triggers: inputs.triggers,
    waitForCompletion: inputs.waitForCompletion ?? DEFAULTS.waitForCompletion,
    timeoutSeconds: inputs.timeoutSeconds ?? DEFAULTS.timeoutSeconds,
    importId: inputs.importId,
  };
}

/** The engine cannot encode undefined values: such keys are left out. */
function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function outputOf(output: JobOutputRecord): JobRunOutput {
  return definedOnly({
    id: output.id,
    name: output.name,
    recordsCount: output.records_count,
    previewUrl: output.preview_url ?? undefined,
  });
}

function outputsOf(job: JobRecord, settings: WaitSettings): JobRunOutputs {
  return definedOnly({
    ...settings,
    status: job.status,
    ownerId: job.owner_id,
    progress: job.progress,
    outputs: job.outputs.map(outputOf),
    variables: job.variables,
    dynamicVariables: job.dynamic_variables,
    startedAt: job.started_at,
    createdAt: job.created_at,
    failedAt: job.failed_at,
    completedAt: job.completed_at,
    clusterId: job.cluster_id,
    packageId: job.package_id,
    errors: job.errors,
    runtimeInSeconds: job.runtime_in_seconds,
    htmlUrl: job.html_url,
    logUrl: job.log_url,
  });
}

/** After a refresh, the inputs as the job has them, so no phantom diff follows. */
function realignedInputs(outs: JobRunOutputs): JobRunInputs {
  const nonEmpty = (variables: Record<string, unknown>) => (Object.keys(variables).length > 0 ? (variables as Record<string, string>) : undefined);
  return definedOnly({
    clusterId: outs.clusterId,
    packageId: outs.packageId,
    variables: nonEmpty(outs.variables),
    dynamicVariables: nonEmpty(outs.dynamicVariables),
    triggers: outs.triggers,
    waitForCompletion: outs.waitForCompletion,
    timeoutSeconds: outs.timeoutSeconds,
    importId: outs.importId,
  });
}

/**
 * A failure that leaves the job in state. The engine stores these properties as the outputs,
 * and later operations load the provider from them, so the serialized provider goes along. For
 * such a failure the engine prints only "resource init failed" and the `reasons`.
 */
function failureWithJob(message: string, job: JobRecord, inputs: JobRunInputs): ResourceFailure {
  return new ResourceFailure(message, String(job.id), outputsOf(job, settingsOf(inputs)));
}

// ---- waiting

function describeState(job: JobRecord): string {
  return job.status === "running" ? `running ${Math.floor(job.progress * 100)}%` : job.status.replace(/_/g, " ");
}

/** One line per change: "job 42 queued", "job 42 running 40%". */
function progressPrinter(jobId: number | string): (job: JobRecord) => void {
  return progressLines((job) => `job ${jobId} ${describeState(job)}`);
}

/**
 * Time left from the share done so far: running time / progress. The running time comes from
 * `started_at` on this machine's clock, capped by the time since a poll last saw the job waiting,
 * which holds whatever the two clocks say.
 */
export function remainingEstimator(first: JobRecord, now: () => number = Date.now): (job: JobRecord) => number | undefined {
  let lastSeenWaiting = first.status === "running" ? undefined : now();
  return (job) => {
    const at = now();
    if (job.status !== "running" || job.started_at === null) {
      lastSeenWaiting = at;
      return undefined;
    }
    if (job.progress <= 0) return undefined;
    let runningMs = at - Date.parse(job.started_at);
    if (lastSeenWaiting !== undefined) runningMs = Math.min(runningMs, at - lastSeenWaiting);
    return runningMs > 0 ? (runningMs * (1 - job.progress)) / job.progress : undefined;
  };
}

/** Stops a job and watches it until it has finished, for a bounded time; returns the last reading. */
async function stopAndWatch(request: RequestFn, jobId: number | string, print: (job: JobRecord) => void): Promise<JobRecord> {
  let asked: JobRecord;
  try {
    asked = await stopJob(request, jobId);
  } catch (error) {
    // 422 when it finished between the last reading and the stop.
    if (!(error instanceof ValidationError)) throw error;
    const job = await getJob(request, jobId);
    if (!isJobFinished(job.status)) throw error;
    return job;
  }
  try {
    const { current } = await pollUntil({
      read: readingFrom(asked, () => getJob(request, jobId)),
      isDone: (job) => isJobFinished(job.status),
      onProgress: print,
      timeoutMs: STOP_WAIT_MS,
      signal: cancelSignal,
    });
    return current;
  } catch (error) {
    // It was asked to stop; watching it is a courtesy that a timeout or a cancellation ends.
    if (error instanceof WaitTimeoutError || isCancelled()) return lastReading(error, asked);
    throw error;
  }
}

async function stopAfterTimeout(request: RequestFn, job: JobRecord, inputs: JobRunInputs, print: (job: JobRecord) => void): Promise<JobRecord> {
  const seconds = settingsOf(inputs).timeoutSeconds;
  console.log(`job ${job.id} did not finish within ${seconds} s: stopping it`);
  const last = await stopAndWatch(request, job.id, print);
  // It may have finished on its own just as it was asked to stop.
  if (last.status === "completed" || last.status === "failed") return last;
  const how = last.status === "stopped" ? "was stopped" : `was asked to stop (it is ${last.status})`;
  throw failureWithJob(`job ${job.id} did not finish within ${seconds} s and ${how}`, last, inputs);
}

/**
 * Waits until the job finishes, or stops it at the deadline. Whatever else ends the wait (an
 * outage, a cancellation) keeps the job in the stack, still running, for the next `up`.
 */
async function waitForJob(request: RequestFn, first: JobRecord, inputs: JobRunInputs): Promise<JobRecord> {
  const print = progressPrinter(first.id);
  const estimate = remainingEstimator(first);
  try {
    const { current } = await pollUntil({
      read: readingFrom(first, () => getJob(request, first.id)),
      isDone: (job) => isJobFinished(job.status),
      expectedRemainingMs: (job) => estimate(job),
      onProgress: print,
      timeoutMs: settingsOf(inputs).timeoutSeconds * 1_000,
      signal: cancelSignal,
    });
    print(current);
    return current;
  } catch (error) {
    const last = lastReading(error, first);
    try {
      if (error instanceof WaitTimeoutError) return await stopAfterTimeout(request, last, inputs, print);
      throw error;
    } catch (failure) {
      throw keepingObject(failure, {
        what: `job ${first.id} (it is ${describeState(last)})`,
        id: String(first.id),
        properties: outputsOf(last, settingsOf(inputs)),
        next: "the next `pulumi up` waits for it again",
        whenCancelled: "the job is left running on the service",
      });
    }
  }
}

/** A job that failed or was stopped fails the operation, and stays in state to run again. */
function resultOf(job: JobRecord, inputs: JobRunInputs): pulumi.dynamic.CreateResult<JobRunOutputs> {
  if (job.status === "failed") {
    const reason = job.errors.trim() === "" ? "" : `: ${job.errors.trim()}`;
    throw failureWithJob(`job ${job.id} failed${reason}`, job, inputs);
  }
  if (job.status === "stopped") throw failureWithJob(`job ${job.id} was stopped`, job, inputs);
  return { id: String(job.id), outs: outputsOf(job, settingsOf(inputs)) };
}

// ---- adoption

function describeDifference(field: string, actual: unknown, wanted: unknown): string | undefined {
  if (sameValue(actual, wanted)) return undefined;
  if (typeof actual === "number") return `${field} is ${actual} on the job but ${String(wanted)} in the inputs`;
  // Variables may hold secrets: name the keys, not the values.
  const a = actual as Record<string, unknown>;
  const w = wanted as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(w)])].filter((key) => !sameValue(a[key], w[key])).sort();
  return `${field} differ from the job's (keys ${keys.join(", ")})`;
}

function adoptionMismatch(job: JobRecord, inputs: JobRunInputs): string | undefined {
  return (
    describeDifference("clusterId", job.cluster_id, inputs.clusterId) ??
    describeDifference("packageId", job.package_id, inputs.packageId) ??
    describeDifference("variables", job.variables, inputs.variables ?? {}) ??
    describeDifference("dynamicVariables", job.dynamic_variables, inputs.dynamicVariables ?? {})
  );
}

async function adoptJob(request: RequestFn, importId: string, inputs: JobRunInputs): Promise<JobRecord> {
  let job: JobRecord;
  try {
    job = await getJob(request, importId);
  } catch (error) {
    if (error instanceof NotFoundError) throw new AdoptionError("job", importId, `no job ${importId} in this account`);
    throw error;
  }
  const mismatch = adoptionMismatch(job, inputs);
  if (mismatch !== undefined) {
    throw new AdoptionError("job", importId, `${mismatch}; a job cannot be changed (leave importId out to run a new one)`);
  }
  return job;
}

function jobCreateOf(inputs: JobRunInputs): JobCreate {
  return definedOnly({
    cluster_id: inputs.clusterId,
    package_id: inputs.packageId,
    variables: inputs.variables,
    dynamic_variables: inputs.dynamicVariables,
  });
}

// ---- running once

/**
 * Whether a run sent at `sentAt` may have made this job: the listing already holds the package
 * and the window, so this user, the cluster and both sets of variables.
 */
export function isJobCreatedBy(job: JobRecord, inputs: JobRunInputs, owners: Pick<Reconciler, "ownerMatches"> = reconciler()): boolean {
  return (
    owners.ownerMatches(job.owner_id) &&
    job.package_id === inputs.packageId &&
    job.cluster_id === inputs.clusterId &&
    sameValue(job.variables, inputs.variables ?? {}) &&
    sameValue(job.dynamic_variables, inputs.dynamicVariables ?? {})
  );
}

/** The jobs, newest first, that a run sent at `sentAt` may have made. */
export async function findCreatedJob(request: RequestFn, inputs: JobRunInputs, sentAt: number): Promise<JobRecord[]> {
  const first = listRecentJobsRequest(inputs.packageId, new Date(windowStart(sentAt)));
  const recent = await collectAllPages(request, first, jobRecord, { what: "jobs", maxPages: 50 });
  return recent.filter((job) => isJobCreatedBy(job, inputs));
}

async function runOnce(request: RequestFn, inputs: JobRunInputs): Promise<JobRecord> {
  const { record } = await reconciler().createOnce({
    kind: "job",
    send: () => runJob(request, jobCreateOf(inputs)),
    find: (sentAt) => findCreatedJob(finishingOnCancel(request), inputs, sentAt),
    idOf: (job) => job.id,
  });
  return record;
}

// ---- provider


export const jobRunProvider = {
  async check(_olds: Record<string, unknown>, news: Record<string, unknown>) {
    return checkWithSchema(inputSchema, news);
  },

  async diff(_id: string, olds: JobRunOutputs, news: JobRunInputs): Promise<pulumi.dynamic.DiffResult> {
    const result = diffByRules(RULES, olds, news);
    if (!needsRerun(olds.status)) return result;
    return { changes: true, replaces: [...(result.replaces ?? []), "status"], deleteBeforeReplace: false };
  },

  async create(inputs: JobRunInputs): Promise<pulumi.dynamic.CreateResult<JobRunOutputs>> {
    const request = apiRequest();
    const job = inputs.importId === undefined ? await runOnce(request, inputs) : await adoptJob(request, inputs.importId, inputs);
    reconciler().noteOwner(job.owner_id);
    const settled = settingsOf(inputs).waitForCompletion ? await waitForJob(request, job, inputs) : job;
    return resultOf(settled, inputs);
  },

  async read(id: string, props: JobRunOutputs): Promise<{ id?: string; props?: JobRunOutputs; inputs?: JobRunInputs }> {
    let job: JobRecord;
    try {
      job = await getJob(apiRequest(), id);
    } catch (error) {
      if (error instanceof NotFoundError) return {};
      throw error;
    }
    const outs = outputsOf(job, settingsOf(props));
    return { id, props: outs, inputs: realignedInputs(outs) };
  },

  /**
   * Only how `up` waits can change in place; the job itself is not touched. A job an earlier
   * `up` stopped waiting for (an outage, a cancellation) is waited for again.
   */
  async update(id: string, olds: JobRunOutputs, news: JobRunInputs): Promise<pulumi.dynamic.UpdateResult<JobRunOutputs>> {
    if (!isJobFinished(olds.status) && settingsOf(news).waitForCompletion) {
      const request = apiRequest();
      const job = await getJob(request, id);
      return resultOf(await waitForJob(request, job, news), news);
    }
    const { triggers: _t, waitForCompletion: _w, timeoutSeconds: _s, importId: _i, ...job } = olds;
    return { outs: definedOnly({ ...job, ...settingsOf(news) }) };
  },

  async delete(id: string, props: JobRunOutputs): Promise<void> {
    if (isJobFinished(props.status)) return;
    try {
      const last = await stopAndWatch(apiRequest(), id, progressPrinter(id));
      if (!isJobFinished(last.status)) console.log(`job ${id} is still ${last.status}: it was asked to stop and is left to finish`);
    } catch (error) {
      // Already gone is what delete wants.
      if (error instanceof NotFoundError) return;
      throw new ResourceFailure(
        `job ${id} could not be asked to stop (${waitFailureOf(error)}); it stays in the stack and the next \`pulumi destroy\` asks again`,
      );
    }
  },
} satisfies ResourceImplementation<JobRunInputs, JobRunOutputs>;

/** Timestamps and the log address the job does not have yet are undefined in the program. */
export class JobRun extends pulumi.CustomResource {
  declare readonly clusterId: pulumi.Output<number>;
  declare readonly packageId: pulumi.Output<number>;
  declare readonly variables: pulumi.Output<Record<string, string>>;
  declare readonly dynamicVariables: pulumi.Output<Record<string, string>>;
  declare readonly triggers: pulumi.Output<unknown>;
  declare readonly waitForCompletion: pulumi.Output<boolean>;
  declare readonly timeoutSeconds: pulumi.Output<number>;
  declare readonly importId: pulumi.Output<string | undefined>;
  declare readonly status: pulumi.Output<string>;
  declare readonly ownerId: pulumi.Output<number>;
  declare readonly progress: pulumi.Output<number>;
  declare readonly outputs: pulumi.Output<JobRunOutput[]>;
  declare readonly startedAt: pulumi.Output<string | undefined>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly failedAt: pulumi.Output<string | undefined>;
  declare readonly completedAt: pulumi.Output<string | undefined>;
  declare readonly errors: pulumi.Output<string>;
  declare readonly runtimeInSeconds: pulumi.Output<number>;
  declare readonly htmlUrl: pulumi.Output<string>;
  declare readonly logUrl: pulumi.Output<string | undefined>;

  constructor(name: string, args: JobRunArgs, opts?: pulumi.CustomResourceOptions) {
    // Every output is named in the props (as undefined) so the engine exposes it on the class.
    const outputs = {
      status: undefined, ownerId: undefined, progress: undefined, outputs: undefined,
      startedAt: undefined, createdAt: undefined, failedAt: undefined, completedAt: undefined,
      errors: undefined, runtimeInSeconds: undefined, htmlUrl: undefined, logUrl: undefined,
      variables: undefined, dynamicVariables: undefined, triggers: undefined, waitForCompletion: undefined, timeoutSeconds: undefined, importId: undefined,
    };
    super(resourceType("JobRun"), name, withProvider("JobRun", { ...outputs, ...args }), opts);
  }
}
