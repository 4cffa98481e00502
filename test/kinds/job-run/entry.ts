/** JobRun in the tests: one run of a package on a cluster; the API cannot delete a job, so destroy stops or forgets it. */
import { RUN_CLUSTER, SHORT_PACKAGE } from "../../support/soak-account";
import { badInput, type KindTests, referenceExample, secretBadInput, soakName, tableOfTheAccount } from "../kind-tests";

const STOPPING = new Set(["pending_stoppage", "stopping"]);
const FINISHED = new Set(["completed", "failed", "stopped"]);

const RUN = { clusterId: 201, packageId: 101 };

const rows = tableOfTheAccount("jobs");
const name = soakName("run");

export const jobRun: KindTests = {
  rows,
  made: { rows, id: (row) => String(row.id) },
  exampleInputs: () => referenceExample("JobRun"),
  replacingChange: { variables: { run_date: "2026-11-21" } },
  oldObject: "kept",
  forcedReplacement: "new object",
  // Each cycle runs the package anew and earlier runs stay on the service: a job is the soak's by
  // its `soak_run` variable, and live while it is of this cycle's run (`soak_cycle`), whatever its status.
  soak: {
    count: 3,
    name,
    args: (i, { cycle }) => ({
      clusterId: RUN_CLUSTER.id,
      packageId: SHORT_PACKAGE.id,
      variables: { soak_run: name(i), soak_cycle: String(cycle()) },
      timeoutSeconds: 600,
    }),
    object: (r, cycle) => ({
      id: String(r.id),
      owner: r.variables?.soak_run,
      live: r.variables?.soak_cycle === String(cycle),
      status: r.status,
      forgotten: FINISHED.has(r.status),
      lostOnlyWhenMissing: true,
    }),
    // A stop asked for and under way is enough.
    leftover: (r) =>
      FINISHED.has(r.status) || STOPPING.has(r.status) ? undefined : `job ${r.id} (${r.variables?.soak_run}, cycle ${r.variables?.soak_cycle}) is ${r.status}`,
    serviceMade: (r) => (r.delivery !== undefined || r.scheduled !== undefined ? [{ kind: "JobRun", id: r.id }] : []),
  },
  badInputs: [
    secretBadInput("secret clusterId not numeric", "clusterId", { ...RUN, clusterId: "cluster-SECRET-abc" }, "clusterId"),
    badInput("missing clusterId", "clusterId", { packageId: 101 }),
    badInput("clusterId not numeric", "clusterId", { ...RUN, clusterId: "analytics" }),
    badInput("negative packageId", "packageId", { ...RUN, packageId: -5 }),
    badInput("variable with a number value", "variables.batch", { ...RUN, variables: { batch: 1 } }),
    badInput("dynamic variable with a boolean value", "dynamicVariables.full", { ...RUN, dynamicVariables: { full: true } }),
    badInput("variables as text", "variables", { ...RUN, variables: "region=eu" }),
    badInput("variables over the service's request size", "variables", { ...RUN, variables: { big: "x".repeat(1_100_000) } }),
    badInput("timeout over a week", "timeoutSeconds", { ...RUN, timeoutSeconds: 604_801 }),
    badInput("waitForCompletion as text", "waitForCompletion", { ...RUN, waitForCompletion: "true" }),
    badInput("unknown input", "cluster", { ...RUN, cluster: 201 }),
    badInput("importId zero", "importId", { ...RUN, importId: 0 }),
  ],
};
