/**
 * Every resource of the package, by kind: the kind names (stored in every stack's state as the
 * type token `pulumi-nodejs:dynamic/etl:<Kind>` and in the one-line provider, so never renamed),
 * the provider objects the runtime dispatches to, and the classes programs use.
 */
import { clusterProvider } from "./cluster";
import { connectionGroupProvider } from "./connection-group";
import type { ResourceImplementation } from "./implementation";
import { jobRunProvider } from "./job-run";
import { publicKeyProvider } from "./public-key";

export const PROVIDERS = {
  PublicKey: publicKeyProvider,
  ConnectionGroup: connectionGroupProvider,
  Cluster: clusterProvider,
  JobRun: jobRunProvider,
} satisfies Record<string, ResourceImplementation<unknown, unknown>>;

export type ResourceKind = keyof typeof PROVIDERS;

export { PublicKey, type PublicKeyArgs, type PublicKeyOutputs } from "./public-key";
export { ConnectionGroup, type ConnectionAssignmentArgs, type ConnectionGroupArgs, type ConnectionGroupOutputs } from "./connection-group";
export { Cluster, type ClusterArgs, type ClusterOutputs } from "./cluster";
export { JobRun, type JobRunArgs, type JobRunOutput, type JobRunOutputs } from "./job-run";
