import { resourceClass } from "../shared/resource-class";
import { packageResource } from "./declaration";
import type { PackageArgs, PackageOutputs } from "./fields";

export type { PackageArgs, PackageOutputs, PackageValidationError } from "./fields";

/**
 * A data flow the service runs, declared as code: validated after each change, promoted between
 * accounts from the same export document. Destroy archives it (the service's delete is soft).
 */
export const Package = resourceClass<PackageArgs, PackageOutputs>(packageResource);
export type Package = InstanceType<typeof Package>;
