import { clusterRecord } from "../../api/clusters";
import { declareResource } from "../shared/declaration";
import { fields } from "./fields";
import { clusterProvider } from "./provider";
import { clusterRecover } from "./recover";

export const clusterResource = declareResource({
  kind: "Cluster",
  description: "Compute that jobs run on; `up` waits until it can run them.",
  provider: clusterProvider,
  recover: clusterRecover,
  export: { runtime: "compute that runs jobs: made and ended by schedules, deliveries and runs, not set up by hand" },
  fields,
  record: clusterRecord,
  secrets: [],
  example: { nodes: 2, name: "analytics", description: "Runs the nightly rollups" },
});
