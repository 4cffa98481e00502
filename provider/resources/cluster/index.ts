import { resourceClass } from "../shared/resource-class";
import type { ClusterArgs, ClusterOutputs } from "./fields";

export type { ClusterArgs, ClusterOutputs } from "./fields";

/** Compute that jobs run on; `up` waits until it can run them. */
export const Cluster = resourceClass<ClusterArgs, ClusterOutputs>("Cluster");
export type Cluster = InstanceType<typeof Cluster>;
