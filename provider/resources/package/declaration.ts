import { packageStateRecord } from "../../api/packages";
import { declareResource } from "../shared/declaration";
import { packageExport } from "./export";
import { fields } from "./fields";
import { packageProvider } from "./provider";
import type { RecoverDeclaration } from "../shared/recovery";
import { findCreatedPackage } from "./provider";
import { resourceClass } from "../shared/resource-class";
import type { PackageArgs, PackageOutputs } from "./fields";

/**
 * Recovering packages: by name and flow, made in the deployment's window. A package the killed
 * create made was not validated yet (or not to its end), so the next `up` validates it.
 */
const packageRecover: RecoverDeclaration = {
  by: "its name",
  find: findCreatedPackage,
  unsettled: (outputs) => (outputs.validate === false || outputs.validationStatus === "completed" ? undefined : "its validation has not passed yet"),
};

export const packageResource = declareResource({
  kind: "Package",
  description:
    "A data flow the service runs. Validated after each change unless `validate` is false: an invalid package fails `up` with each broken rule named and stays in the stack. Destroy archives it, as the service's delete does.",
  provider: packageProvider,
  recover: packageRecover,
  export: packageExport,
  fields,
  record: packageStateRecord,
  secrets: [],
  example: {
    name: "orders to warehouse",
    variables: { since: "2026-01-01" },
    dataFlow: {
      components: [
        { name: "orders", type: "source", connection: { id: 301 }, table: "orders" },
        { name: "recent", type: "filter", condition: "created_at > '${since}'" },
        { name: "warehouse", type: "destination", connection: { id: 302 }, table: "recent_orders" },
      ],
      edges: [
        { from: "orders", to: "recent" },
        { from: "recent", to: "warehouse" },
      ],
    },
  },
});

export type { PackageArgs, PackageOutputs, PackageValidationError } from "./fields";

/**
 * A data flow the service runs, declared as code: validated after each change, promoted between
 * accounts from the same export document. Destroy archives it (the service's delete is soft).
 */
export const Package = resourceClass<PackageArgs, PackageOutputs>(packageResource);
export type Package = InstanceType<typeof Package>;
