/** `pulumi-etl/plugin`: the plugin's schema and the kinds it serves, for tools that build on them (SDK generation, tests). */
export { defaultPluginDownloadURL, packageSchema, typeToken, PACKAGE, SDK_NAMES, type SchemaOptions } from "./schema";
export { RESOURCE_KINDS, SINGLETON_KINDS, type ResourceKind } from "../resources/registry";
export { RESOURCE_EXAMPLES } from "./examples";
export { FUNCTIONS, type FunctionName } from "../functions/list";
export { packageVersion } from "./version";
export { referencePages, withReadmeTables } from "./reference-docs";
export { classesModuleText } from "./classes-module";
export { exportFiles, LANGUAGES, type Language } from "../export/files";
export type { AccountExport } from "../export/read";
export { yamlBlock, yamlScalar } from "./yaml-text";
export { ConfigValue, FileText, ResourceReference } from "../resources/shared/exported";
