import { jobRecord } from "../../api/jobs";
import { declareResource } from "../shared/declaration";
import { tableOperations } from "./fields";
import { jobRunImplementation } from "./implementation";
import { isJobFinished } from "../../api/jobs";
import type { RecoverDeclaration } from "../shared/recovery";
import { waitSettingsOf } from "./fields";
import { createdJob } from "./implementation";

/**
 * Recovering job runs: a run is the job of the package made in the deployment's window on the
 * cluster, with the variables asked for. One still running is waited for by the next `up`, when
 * the resource waits for its jobs.
 */
const jobRunRecover: RecoverDeclaration = {
  by: "its package, cluster, variables and creation time",
  find: createdJob.find,
  unsettled: (outputs) => (isJobFinished(String(outputs.status)) || !waitSettingsOf(outputs).waitForCompletion ? undefined : `it is ${String(outputs.status)}`),
};

export const jobRunDeclaration = declareResource({
  kind: "JobRun",
  description: "One run of a package on a cluster; `up` waits until it finishes.",
  notes: [
    "A run of a package looked up by id, run again whenever the package changes:",
    "",
    "```ts",
    'import * as etl from "pulumi-etl";',
    "",
    "const rollup = etl.getPackage({ packageId: 101 });",
    'const run = new etl.JobRun("orders-rollup", {',
    "  clusterId: 201,",
    "  packageId: rollup.then((found) => found.id),",
    '  variables: { run_date: "2026-11-20" },',
    "  triggers: [rollup.then((found) => found.updatedAt)],",
    "});",
    "export const status = run.status;",
    "```",
    "",
    "- `up` runs the job and, unless `waitForCompletion` is false, waits for it, printing lines such as `job 42 running 40%`. Polls start fast and then aim at the job's expected end, so even a long job costs a handful of API calls.",
    "",
    "- A completed run is never repeated by later `up`s; changing its cluster, package, variables or triggers runs the package again (the old record is forgotten).",
    "",
    "- A job that fails or is stopped fails `up` with the job's own error text and stays in the stack; the next `up` shows a replacement and runs the package again.",
    "",
    "- Past `timeoutSeconds` the job is stopped and `up` fails, saying so.",
    "",
    "- `refresh` updates status, progress and outputs. `destroy` stops a job that has not finished and forgets a finished one (the API cannot delete jobs).",
  ],
  implementation: jobRunImplementation,
  recover: jobRunRecover,
  export: { runtime: "one run of a package: a record of what ran, not set-up" },
  resourceInputs: [
    { path: "clusterId", kind: "Cluster" },
    { path: "packageId", kind: "Package" },
  ],
  tableOperations,
  record: jobRecord,
  secrets: [],
  example: { clusterId: 201, packageId: 101, variables: { run_date: "2026-11-20" } },
});

export type { JobRunArgs, JobRunOutput, JobRunOutputs } from "./fields";
