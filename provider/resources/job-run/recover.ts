/**
 * Recovering job runs: a run is the job of the package made in the deployment's window on the
 * cluster, with the variables asked for. One still running is waited for by the next `up`, when
 * the resource waits for its jobs.
 */
import { isJobFinished } from "../../api/jobs";
import type { RecoverDeclaration } from "../shared/recovery";
import { waitSettingsOf } from "./fields";
import { findCreatedJob } from "./provider";

export const jobRunRecover: RecoverDeclaration = {
  by: "its package, cluster, variables and creation time",
  find: findCreatedJob,
  unsettled: (outputs) => (isJobFinished(String(outputs.status)) || !waitSettingsOf(outputs).waitForCompletion ? undefined : `it is ${String(outputs.status)}`),
};
