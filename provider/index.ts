/** pulumi-etl: Pulumi resources and functions for the ETL service. */
export * from "./resources/registry";
export * from "./resources/classes";
export * from "./components/pipeline";
export * from "./functions";
export { SETTINGS as CONFIGURATION_SETTINGS, type ProviderConfig } from "./config";
export * from "./client/errors";
export { UserFacingError } from "./errors";
export { dataFlowInput, flowErrorsBeforeValidation } from "./resources/package/flow";
