import type { DataFlow } from "../../../contract/data-flow";
import type { PackageStatus } from "../../../contract/vocabularies";
import type { Store } from "../../store";
import { archive, insertPackage, PACKAGES, PACKAGE_DEFAULTS, type PackageRow, type PackageRun } from "./model";
import { runOfPackage } from "./runs";

/**
 * What other areas may know of packages, without their rows: a package's name and status, how a
 * job of it runs (jobs and schedules start jobs with it), and a package made for another area's
 * own use (a delivery's pipeline).
 */

export type { PackageRun } from "./model";

export interface PackageSummary {
  id: number;
  name: string;
  status: PackageStatus;
  variables: Record<string, string>;
}

function summaryOf(pkg: PackageRow): PackageSummary {
  return { id: pkg.id, name: pkg.name, status: pkg.status, variables: pkg.variables };
}

export function packageSummary(store: Store, accountId: number, id: number): PackageSummary | undefined {
  const pkg = store.find(PACKAGES, accountId, id);
  return pkg === undefined ? undefined : summaryOf(pkg);
}

/** Why the package cannot run a new job ("…names a package that is archived"), or undefined. */
export function packageRunRefusal(store: Store, accountId: number, id: number): string | undefined {
  const pkg = store.find(PACKAGES, accountId, id);
  if (pkg === undefined) return `${id} does not name a package of this account`;
  return pkg.status === "active" ? undefined : `${id} names a package that is ${pkg.status}`;
}

/** How a job of the package started now runs; undefined when there is no such package. */
export function jobRunOf(store: Store, accountId: number, id: number): PackageRun | undefined {
  const pkg = store.find(PACKAGES, accountId, id);
  return pkg === undefined ? undefined : runOfPackage(store, pkg);
}

export interface FlowPackage {
  accountId: number;
  ownerId: number;
  name: string;
  description: string;
  flow: DataFlow;
}

export function insertFlowPackage(store: Store, fields: FlowPackage): PackageSummary {
  const { flow, ...rest } = fields;
  return summaryOf(insertPackage(store, { ...rest, variables: {}, flowType: "dataflow", flowVersion: PACKAGE_DEFAULTS.flowVersion, dataFlow: flow }));
}

/** Archives it, as the service's delete of a package does. */
export function archivePackage(store: Store, accountId: number, id: number, at: string): void {
  const pkg = store.find(PACKAGES, accountId, id);
  if (pkg !== undefined) archive(store, pkg, at);
}
