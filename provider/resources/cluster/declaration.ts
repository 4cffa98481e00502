import { clusterRecord } from "../../api/clusters";
import { declareResource } from "../shared/declaration";
import { tableOperations } from "./fields";
import { clusterImplementation } from "./implementation";
import type { RecoverDeclaration } from "../shared/recovery";
import { createdCluster } from "./implementation";
import { isReady } from "./waits";

/**
 * Recovering clusters: a name is not unique, so a cluster is the one made in the deployment's
 * window with every setting asked for. One still coming up is waited for by the next `up`.
 */
const clusterRecover: RecoverDeclaration = {
  by: "its settings and creation time",
  find: createdCluster.find,
  unsettled: (outputs) => (isReady(String(outputs.status)) ? undefined : `it is ${String(outputs.status)}`),
};

export const clusterDeclaration = declareResource({
  kind: "Cluster",
  description: "Compute that jobs run on; `up` waits until it can run them.",
  notes: [
    "`create` waits until the cluster can run jobs (available or idle), printing its progress on the resource's row; `destroy` terminates it and waits until it is terminated. `status`, the job counts and the timestamps move on their own (an unused cluster goes idle) and never cause a change.",
    "",
    "A cluster not ready within `timeoutSeconds` fails `up` but stays in the stack; the next `up` waits for the same cluster instead of creating another. A cluster terminated outside Pulumi counts as deleted: `refresh` drops it and `up` creates a new one.",
  ],
  implementation: clusterImplementation,
  recover: clusterRecover,
  export: { runtime: "compute that runs jobs: made and ended by schedules, deliveries and runs, not set up by hand" },
  tableOperations,
  record: clusterRecord,
  secrets: [],
  example: { nodes: 2, name: "analytics", description: "Runs the nightly rollups" },
});

export type { ClusterArgs, ClusterOutputs } from "./fields";
