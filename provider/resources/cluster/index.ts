import { resourceClass } from "../shared/resource-class";
import { clusterResource } from "./declaration";
import type { ClusterArgs, ClusterOutputs } from "./fields";

export type { ClusterArgs, ClusterOutputs } from "./fields";

/** Compute that jobs run on; `up` waits until it can run them. */
export const Cluster = resourceClass<ClusterArgs, ClusterOutputs>(clusterResource);
export type Cluster = InstanceType<typeof Cluster>;
