import { jobRecord } from "../../api/jobs";
import { declareResource } from "../shared/declaration";
import { fields } from "./fields";
import { jobRunProvider } from "./provider";
import { jobRunRecover } from "./recover";

export const jobRunResource = declareResource({
  kind: "JobRun",
  description: "One run of a package on a cluster; `up` waits until it finishes.",
  provider: jobRunProvider,
  recover: jobRunRecover,
  export: { runtime: "one run of a package: a record of what ran, not set-up" },
  fields,
  record: jobRecord,
  secrets: [],
  example: { clusterId: 201, packageId: 101, variables: { run_date: "2026-11-20" } },
});
