/**
 * Waiting for a cluster to come up or to go. Whatever ends a wait early (its timeout, an outage,
 * a cancellation) is reported with the cluster's id and state, so the stack keeps it and the next
 * `pulumi up` (or `destroy`) waits for it again.
 */
import { ENDING_CLUSTER_STATUSES } from "../../../contract/vocabularies";
import { READY_CLUSTER_STATUSES, getCluster, terminateCluster, type ClusterRecord } from "../../api/clusters";
import { ValidationError } from "../../client/errors";
import type { RequestFn } from "../../client/http";
import type { OperationContext } from "../../context";
import { cancelledBecause } from "../../cancellation";
import type { Reporter } from "../../progress";
import { keepingObject, lastReading, ResourceFailure, waitFailureOf } from "../shared/failures";
import { unlessGone } from "../shared/gone";
import { pollUntil, progressLines, readingFrom, WaitTimeoutError } from "../shared/wait";
import { tableOperations, type ClusterInputs, type ClusterOutputs } from "./fields";

export function isReady(status: string): boolean {
  return (READY_CLUSTER_STATUSES as readonly string[]).includes(status);
}

export function isEnding(status: string): boolean {
  // Terminating and terminated clusters cannot run jobs and never come back.
  return (ENDING_CLUSTER_STATUSES as readonly string[]).includes(status);
}

/** The cluster, or undefined once the service no longer knows it. */
export function findCluster(request: RequestFn, id: string): Promise<ClusterRecord | undefined> {
  return unlessGone(getCluster(request, id));
}

function timeoutOf(inputs: Partial<ClusterOutputs>): number {
  return tableOperations.desired("timeoutSeconds", inputs as ClusterInputs) as number;
}

/** "cluster 202 creating", once per status. */
function progressPrinter(report: Reporter, id: string): (record: ClusterRecord | undefined) => void {
  return progressLines(report, (record) => (record === undefined ? undefined : `cluster ${id} ${record.status}`));
}

/** Watches the cluster from `first` until `isDone`, within its timeout. */
function watch(ctx: OperationContext, first: ClusterRecord, seconds: number, isDone: (record: ClusterRecord | undefined) => boolean) {
  const id = String(first.id);
  return pollUntil<ClusterRecord | undefined>({
    read: readingFrom<ClusterRecord | undefined>(first, () => findCluster(ctx.request, id)),
    isDone,
    onProgress: progressPrinter(ctx.report, id),
    timeoutMs: seconds * 1000,
    signal: ctx.signal,
    outageToleranceMs: ctx.outageToleranceMs,
  });
}

/** Waits until the cluster can run jobs. */
async function waitUntilReady(ctx: OperationContext, first: ClusterRecord, inputs: ClusterInputs): Promise<ClusterRecord> {
  const id = String(first.id);
  const seconds = timeoutOf(inputs);
  let current: ClusterRecord | undefined;
  try {
    ({ current } = await watch(ctx, first, seconds, (r) => r === undefined || isReady(r.status) || isEnding(r.status) || r.status === "error"));
  } catch (error) {
    const last = lastReading<ClusterRecord | undefined>(error, first) ?? first;
    if (error instanceof WaitTimeoutError) {
      throw new ResourceFailure(
        `cluster ${id} is not ready after ${seconds} s (it is ${last.status}); it stays in the stack and the next \`pulumi up\` waits for it again (timeoutSeconds sets how long)`,
        id,
        tableOperations.outputs(last, inputs),
      );
    }
    throw keepingObject(
      error,
      {
        what: `cluster ${id} (it is ${last.status})`,
        id,
        properties: tableOperations.outputs(last, inputs),
        next: "the next `pulumi up` waits for it again",
      },
      ctx.signal,
    );
  }
  if (current === undefined || isEnding(current.status)) {
    throw new ResourceFailure(`cluster ${id} was terminated before it became ready`);
  }
  if (current.status === "error") {
    throw new ResourceFailure(`cluster ${id} failed: the service reports its status as error`, id, tableOperations.outputs(current, inputs));
  }
  return current;
}

/** The outputs of a cluster once it can run jobs. */
export async function settled(ctx: OperationContext, record: ClusterRecord, inputs: ClusterInputs): Promise<ClusterOutputs> {
  const ready = isReady(record.status) ? record : await waitUntilReady(ctx, record, inputs);
  return tableOperations.outputs(ready, inputs);
}

function isAlreadyTerminated(error: unknown): boolean {
  return error instanceof ValidationError && /already terminated/i.test(error.serviceMessage);
}

/** Starts termination; undefined when there is nothing left to terminate. */
async function startTermination(request: RequestFn, id: string): Promise<ClusterRecord | undefined> {
  try {
    return await unlessGone(terminateCluster(request, id));
  } catch (error) {
    if (isAlreadyTerminated(error)) return undefined;
    throw error;
  }
}

export async function terminate(ctx: OperationContext, id: string, props: Partial<ClusterOutputs>): Promise<void> {
  const first = await startTermination(ctx.request, id);
  if (first === undefined) return;
  const seconds = timeoutOf(props);
  const again =
    "its termination was asked for, it stays in the stack, and the next `pulumi destroy` (or `pulumi up`, if it is still declared) waits for it again";
  try {
    await watch(ctx, first, seconds, (record) => record === undefined || record.status === "terminated");
  } catch (error) {
    const status = lastReading<ClusterRecord | undefined>(error, first)?.status ?? first.status;
    if (error instanceof WaitTimeoutError) {
      throw new ResourceFailure(`cluster ${id} is still ${status} after ${seconds} s: ${again} (timeoutSeconds sets how long)`);
    }
    const cause = cancelledBecause(ctx.signal) ?? `reading it failed (${waitFailureOf(error)})`;
    throw new ResourceFailure(`cluster ${id} is ${status} and ${cause} before it was terminated: ${again}`);
  }
}
