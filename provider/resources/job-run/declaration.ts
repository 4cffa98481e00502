import { jobRecord } from "../../api/jobs";
import { declareResource } from "../shared/declaration";
import { fields } from "./fields";
import { jobRunProvider } from "./provider";
import { isJobFinished } from "../../api/jobs";
import type { RecoverDeclaration } from "../shared/recovery";
import { waitSettingsOf } from "./fields";
import { findCreatedJob } from "./provider";
import { resourceClass } from "../shared/resource-class";
import type { JobRunArgs, JobRunOutputs } from "./fields";

/**
 * Recovering job runs: a run is the job of the package made in the deployment's window on the
 * cluster, with the variables asked for. One still running is waited for by the next `up`, when
 * the resource waits for its jobs.
 */
const jobRunRecover: RecoverDeclaration = {
  by: "its package, cluster, variables and creation time",
  find: findCreatedJob,
  unsettled: (outputs) => (isJobFinished(String(outputs.status)) || !waitSettingsOf(outputs).waitForCompletion ? undefined : `it is ${String(outputs.status)}`),
};

export const jobRunResource = declareResource({
  kind: "JobRun",
  description: "One run of a package on a cluster; `up` waits until it finishes.",
  provider: jobRunProvider,
  recover: jobRunRecover,
  export: { runtime: "one run of a package: a record of what ran, not set-up" },
  resourceInputs: [
    { path: "clusterId", kind: "Cluster" },
    { path: "packageId", kind: "Package" },
  ],
  fields,
  record: jobRecord,
  secrets: [],
  example: { clusterId: 201, packageId: 101, variables: { run_date: "2026-11-20" } },
});

export type { JobRunArgs, JobRunOutput, JobRunOutputs } from "./fields";

/** One run of a package's workflow on a cluster. Timestamps the job does not have yet are undefined. */
export const JobRun = resourceClass<JobRunArgs, JobRunOutputs>(jobRunResource);
export type JobRun = InstanceType<typeof JobRun>;
