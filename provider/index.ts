/** pulumi-etl: Pulumi resources and functions for the ETL service. */
export {
  Cluster,
  ConnectionGroup,
  JobRun,
  PublicKey,
  type ClusterArgs,
  type ClusterOutputs,
  type ConnectionAssignmentArgs,
  type ConnectionGroupArgs,
  type ConnectionGroupOutputs,
  type JobRunArgs,
  type JobRunOutput,
  type JobRunOutputs,
  type PublicKeyArgs,
  type PublicKeyOutputs,
} from "./resources";
export * from "./functions";
export { SETTINGS as CONFIGURATION_SETTINGS, type ProviderConfig } from "./config";
export * from "./client/errors";
export { UserFacingError } from "./errors";
