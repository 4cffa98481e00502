/** pulumi-etl: Pulumi resources and functions for the ETL service. */
export { PublicKey, type PublicKeyArgs, type PublicKeyOutputs } from "./resources/public-key";
export {
  ConnectionGroup,
  type ConnectionAssignmentArgs,
  type ConnectionGroupArgs,
  type ConnectionGroupOutputs,
} from "./resources/connection-group";
export { Cluster, type ClusterArgs, type ClusterOutputs } from "./resources/cluster";
export { JobRun, type JobRunArgs, type JobRunOutput, type JobRunOutputs } from "./resources/job-run";
export * from "./functions";
export { SETTINGS as CONFIGURATION_SETTINGS, type ProviderConfig } from "./config";
export * from "./client/errors";
