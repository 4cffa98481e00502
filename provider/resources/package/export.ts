/**
 * Exporting packages: each flow is written as the package's export document, in a file beside
 * the program that the program reads, so a flow is reviewed and changed as a file. Packages the
 * service made for a delivery belong to the delivery and are left to it. A package without a flow
 * has no file, and no `dataFlow`.
 */
import { exportPackage, packageRecord, type PackageRecord } from "../../api/packages";
import type { ExportDeclaration } from "../shared/exported";
import type { PackageState } from "./fields";
import { flowOfService, hasNoComponents } from "./flow";

type ExportedPackage = PackageState & { exportDocument?: unknown };

export const packageExport: ExportDeclaration<ExportedPackage> = {
  listing: { method: "GET", path: "/packages", query: { limit: 100 } },
  item: packageRecord,
  complete: async ({ request }, pkg: PackageRecord) => {
    const document = await exportPackage(request, pkg.id);
    return { ...pkg, data_flow_json: document.data_flow_json, exportDocument: document };
  },
  name: (pkg) => pkg.name,
  // A package without a flow is written without one, as an import by id rebuilds it: no file.
  inputs: (inputs, pkg, context) =>
    hasNoComponents(flowOfService(pkg.data_flow_json))
      ? inputs
      : { ...inputs, dataFlow: context.file("flows", "json", `${JSON.stringify(pkg.exportDocument, null, 2)}\n`) },
};
