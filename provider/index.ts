/** pulumi-etl: Pulumi resources and functions for the ETL service. */
export { PublicKey, type PublicKeyArgs, type PublicKeyOutputs } from "./resources/public-key";
export { ConnectionGroup } from "./resources/connection-group";
export { Cluster } from "./resources/cluster";
export { JobRun } from "./resources/job-run";
export * from "./functions";
export { SETTINGS as CONFIGURATION_SETTINGS, type ProviderConfig } from "./config";
export * from "./client/errors";
