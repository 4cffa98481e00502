/**
 * Waiting for a job: until it finishes, or stopping it at the deadline. Whatever else ends the
 * wait (an outage, a cancellation) keeps the job in the stack, still running, for the next `up`.
 */
import { getJob, isJobFinished, stopJob, type JobRecord } from "../../api/jobs";
import { ValidationError } from "../../client/errors";
import type { OperationContext } from "../../context";
import { keepingObject, lastReading, ResourceFailure } from "../shared/failures";
import { pollUntil, progressLines, readingFrom, WaitTimeoutError } from "../shared/wait";
import { tableOperations, waitSettingsOf, type JobRunInputs, type JobRunOutputs } from "./fields";
import type { Reporter } from "../../progress";

/** A stop takes the service seconds; past this, delete and a timed-out wait stop watching it. */
const STOP_WAIT_MS = 120_000;

/**
 * A failure that leaves the job in state. The engine stores these properties as the outputs,
 * and later operations load the provider from them, so the serialized provider goes along. For
 * such a failure the engine prints only "resource init failed" and the `reasons`.
 */
function failureWithJob(message: string, job: JobRecord, inputs: JobRunInputs): ResourceFailure {
  return new ResourceFailure(message, String(job.id), tableOperations.outputs(job, inputs));
}

function describeState(job: JobRecord): string {
  return job.status === "running" ? `running ${Math.floor(job.progress * 100)}%` : job.status.replace(/_/g, " ");
}

/** One line per change: "job 42 queued", "job 42 running 40%". */
export function progressPrinter(report: Reporter, jobId: number | string): (job: JobRecord) => void {
  return progressLines(report, (job) => `job ${jobId} ${describeState(job)}`);
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
export async function stopAndWatch(ctx: OperationContext, jobId: number | string, print: (job: JobRecord) => void): Promise<JobRecord> {
  const { request } = ctx;
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
      signal: ctx.signal,
      outageToleranceMs: ctx.outageToleranceMs,
    });
    return current;
  } catch (error) {
    // It was asked to stop; watching it is a courtesy that a timeout or a cancellation ends.
    if (error instanceof WaitTimeoutError || ctx.signal.aborted) return lastReading(error, asked);
    throw error;
  }
}

async function stopAfterTimeout(ctx: OperationContext, job: JobRecord, inputs: JobRunInputs, print: (job: JobRecord) => void): Promise<JobRecord> {
  const seconds = waitSettingsOf(inputs).timeoutSeconds;
  ctx.report.note(`job ${job.id} did not finish within ${seconds} s: stopping it`, "warning");
  const last = await stopAndWatch(ctx, job.id, print);
  // It may have finished on its own just as it was asked to stop.
  if (last.status === "completed" || last.status === "failed") return last;
  const how = last.status === "stopped" ? "was stopped" : `was asked to stop (it is ${last.status})`;
  throw failureWithJob(`job ${job.id} did not finish within ${seconds} s and ${how}`, last, inputs);
}

/** Waits until the job finishes, or stops it at the deadline. */
export async function waitForJob(ctx: OperationContext, first: JobRecord, inputs: JobRunInputs): Promise<JobRecord> {
  const { request } = ctx;
  const print = progressPrinter(ctx.report, first.id);
  const estimate = remainingEstimator(first);
  try {
    const { current } = await pollUntil({
      read: readingFrom(first, () => getJob(request, first.id)),
      isDone: (job) => isJobFinished(job.status),
      expectedRemainingMs: (job) => estimate(job),
      onProgress: print,
      timeoutMs: waitSettingsOf(inputs).timeoutSeconds * 1_000,
      signal: ctx.signal,
      outageToleranceMs: ctx.outageToleranceMs,
    });
    print(current);
    return current;
  } catch (error) {
    const last = lastReading(error, first);
    try {
      if (error instanceof WaitTimeoutError) return await stopAfterTimeout(ctx, last, inputs, print);
      throw error;
    } catch (failure) {
      throw keepingObject(
        failure,
        {
          what: `job ${first.id} (it is ${describeState(last)})`,
          id: String(first.id),
          properties: tableOperations.outputs(last, inputs),
          next: "the next `pulumi up` waits for it again",
          whenCancelled: "the job is left running on the service",
        },
        ctx.signal,
      );
    }
  }
}

/** A job that failed or was stopped fails the operation, and stays in state to run again. */
export function resultOf(job: JobRecord, inputs: JobRunInputs): { id: string; outs: JobRunOutputs } {
  if (job.status === "failed") {
    const reason = job.errors.trim() === "" ? "" : `: ${job.errors.trim()}`;
    throw failureWithJob(`job ${job.id} failed${reason}`, job, inputs);
  }
  if (job.status === "stopped") throw failureWithJob(`job ${job.id} was stopped`, job, inputs);
  return { id: String(job.id), outs: tableOperations.outputs(job, inputs) };
}
