import { resourceClass } from "../shared/resource-class";
import { fields, type ClusterArgs, type ClusterOutputs } from "./fields";

export type { ClusterArgs, ClusterOutputs } from "./fields";

/** Compute that jobs run on; `up` waits until it can run them. */
export const Cluster = resourceClass<ClusterArgs, ClusterOutputs>("Cluster", fields.outputNames);
export type Cluster = InstanceType<typeof Cluster>;
