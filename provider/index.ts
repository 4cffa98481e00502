/** pulumi-etl: Pulumi resources and functions for the ETL service. */
export { PublicKey, type PublicKeyArgs, type PublicKeyOutputs } from "./resources/public-key";
export { SETTINGS as CONFIGURATION_SETTINGS, type ProviderConfig } from "./config";
export * from "./client/errors";
