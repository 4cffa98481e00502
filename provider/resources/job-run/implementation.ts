/**
 * JobRun: one run of a package's workflow on a cluster (`{base_url}/jobs`, spec 2.1 to 4.1).
 *
 * Whatever defines the run replaces it: a new job runs and the old record is forgotten. A job
 * that completed is never run again by later updates. One that failed or was stopped stays in
 * state with its error, and its diff asks for a replacement (on `status`), so the next `up` runs
 * the package again. Deleting a job that has not finished stops it; a finished one is only
 * forgotten, since the API has no way to delete jobs. A run whose outcome is unknown looks for a
 * job of the package made since it was sent, on the same cluster with the same variables, before
 * running again (see shared/reconciler.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import { getJob, isJobFinished, jobRecord, listRecentJobsRequest, runJob, type JobRecord } from "../../api/jobs";
import type { RequestFn } from "../../client/http";
import { collectAllPages } from "../../client/pagination";
import type { OperationContext } from "../../context";
import { AdoptionError, objectToAdopt } from "../shared/adopt";
import { sameValue } from "../shared/diff";
import { ResourceFailure, waitFailureOf } from "../shared/failures";
import { unlessGone } from "../shared/gone";
import type { ResourceImplementation } from "../shared/implementation";
import { standardOperations } from "../shared/operations";
import { windowStart } from "../shared/reconcile";
import { createdLookup } from "../shared/created-lookup";
import { tableOperations, waitSettingsOf, type JobRunInputs, type JobRunOutputs } from "./fields";
import { progressPrinter, resultOf, stopAndWatch, waitForJob } from "./waits";

/** Statuses after which the package has to run again to get its result. */
const RERUN_STATUSES: readonly string[] = ["failed", "stopped"];

export function needsRerun(status: string | undefined): boolean {
  return status !== undefined && RERUN_STATUSES.includes(status);
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

/** The first input that defines the run and differs from the job's. */
function adoptionMismatch(job: JobRecord, inputs: JobRunInputs): string | undefined {
  const found = tableOperations.outputs(job, inputs);
  const defining = ["clusterId", "packageId", "variables", "dynamicVariables"] as const;
  return defining.map((name) => describeDifference(name, found[name], tableOperations.desired(name, inputs))).find((text) => text !== undefined);
}

async function adoptJob(request: RequestFn, importId: string, inputs: JobRunInputs): Promise<JobRecord> {
  const job = await objectToAdopt("job", importId, () => getJob(request, importId));
  const mismatch = adoptionMismatch(job, inputs);
  if (mismatch !== undefined) {
    throw new AdoptionError("job", importId, `${mismatch}; a job cannot be changed (leave importId out to run a new one)`);
  }
  return job;
}

// ---- running once

/**
 * The job a run may have made: the package's jobs made since it was sent (the listing asks for
 * the package and the window), by this user, with everything the run sent.
 */
export const createdJob = createdLookup<JobRecord, JobRunInputs>({
  candidates: (request, inputs, sentAt) =>
    collectAllPages(request, listRecentJobsRequest(inputs.packageId, new Date(windowStart(sentAt))), jobRecord, { what: "jobs", maxPages: 50 }),
  madeBy: (job, inputs, owners) => owners.ownerMatches(job.owner_id) && tableOperations.hasSentValues(job, inputs),
});

/** The job's outputs once it finished, or as it is when `up` does not wait for it. */
async function settleJob(ctx: OperationContext, job: JobRecord, inputs: JobRunInputs): Promise<JobRunOutputs> {
  const settled = waitSettingsOf(inputs).waitForCompletion ? await waitForJob(ctx, job, inputs) : job;
  return resultOf(settled, inputs).outs;
}

async function adopt(ctx: OperationContext, importId: string, inputs: JobRunInputs): Promise<JobRunOutputs> {
  const job = await adoptJob(ctx.request, importId, inputs);
  ctx.reconciler.noteOwner(job.owner_id);
  return settleJob(ctx, job, inputs);
}

// ---- provider

/** Jobs cannot be deleted: destroy stops a running one and forgets it, and forgets a finished one. */
async function stopIfRunning(ctx: OperationContext, id: string, props: JobRunOutputs): Promise<void> {
  if (isJobFinished(props.status)) return;
  try {
    const last = await unlessGone(stopAndWatch(ctx, id, progressPrinter(ctx.report, id)));
    if (last !== undefined && !isJobFinished(last.status))
      ctx.report.note(`job ${id} is still ${last.status}: it was asked to stop and is left to finish`, "warning");
  } catch (error) {
    throw new ResourceFailure(
      `job ${id} could not be asked to stop (${waitFailureOf(error)}); it stays in the stack and the next \`pulumi destroy\` asks again`,
    );
  }
}

export const jobRunImplementation = {
  ...standardOperations(tableOperations, {
    kind: "job",
    create: runJob,
    findCreated: createdJob.find,
    get: getJob,
    listed: {
      listing: { method: "GET", path: "/jobs", query: { status: "all", direction: "asc", limit: 100 } },
      item: jobRecord,
      createdOf: (job) => (job as JobRecord).created_at,
    },
    remove: stopIfRunning,
    adopt,
    settle: (ctx, job, inputs) => settleJob(ctx, job, inputs),
  }),

  async diff(_id: string, olds: JobRunOutputs, news: JobRunInputs): Promise<pulumi.dynamic.DiffResult> {
    const result = tableOperations.diff(olds, news);
    if (!needsRerun(olds.status)) return result;
    return { ...result, changes: true, replaces: [...(result.replaces ?? []), "status"], deleteBeforeReplace: false };
  },

  /**
   * Only how `up` waits can change in place; the job itself is not touched. A job an earlier
   * `up` stopped waiting for (an outage, a cancellation) is waited for again.
   */
  async update(ctx: OperationContext, id: string, olds: JobRunOutputs, news: JobRunInputs): Promise<pulumi.dynamic.UpdateResult<JobRunOutputs>> {
    if (!isJobFinished(olds.status) && waitSettingsOf(news).waitForCompletion) {
      const job = await getJob(ctx.request, id);
      return resultOf(await waitForJob(ctx, job, news), news);
    }
    return { outs: tableOperations.withOwnInputs(olds, news) };
  },
} satisfies ResourceImplementation<JobRunInputs, JobRunOutputs>;
