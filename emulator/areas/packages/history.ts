import type { DataFlow } from "../../../contract/data-flow";
import { defineTable, type Row, type Store } from "../../store";
import { versions, type PackageRow } from "./model";

/**
 * Each version of a package as it was saved, so `GET /packages/{id}?version=N` (or
 * `flow_version`, `package_version`) answers that version. The facts list no endpoint for
 * versions; these are the get's parameters only.
 */
export interface PackageVersionRow extends Row {
  packageId: number;
  version: number;
  name: string;
  description: string;
  variables: Record<string, string>;
  dataFlow: DataFlow | null;
  flowVersion: string;
  packageVersion: string;
  updatedAt: string;
}

export const PACKAGE_VERSIONS = defineTable<PackageVersionRow>("packageVersions");

export function recordVersion(store: Store, pkg: PackageRow): void {
  const v = versions(pkg);
  store.insert(PACKAGE_VERSIONS, {
    accountId: pkg.accountId,
    packageId: pkg.id,
    version: v.version,
    name: pkg.name,
    description: pkg.description,
    variables: pkg.variables,
    dataFlow: pkg.dataFlow ?? null,
    flowVersion: v.flowVersion,
    packageVersion: v.packageVersion,
    updatedAt: pkg.updatedAt,
  });
}

export interface VersionQuery {
  version?: number;
  flowVersion?: string;
  packageVersion?: string;
}

/**
 * The package as it was at the newest version matching every parameter given; undefined when
 * none does. A package seeded before versions were kept has its current one only. Without a
 * parameter, the package as it is now: a change that saves no version (a deleted connection
 * invalidating its flow, an archive) moves its `updated_at` all the same, as its listing shows.
 */
export function packageAtVersion(store: Store, pkg: PackageRow, query: VersionQuery): PackageRow | undefined {
  if (query.version === undefined && query.flowVersion === undefined && query.packageVersion === undefined) return pkg;
  const saved = store.list(PACKAGE_VERSIONS, pkg.accountId).filter((row) => row.packageId === pkg.id);
  const candidates: PackageRow[] = saved.length === 0 ? [pkg] : saved.map(({ id: _, packageId: __, ...row }) => ({ ...pkg, ...row }));
  const matches = candidates.filter((row) => {
    const v = versions(row);
    return (
      (query.version === undefined || v.version === query.version) &&
      (query.flowVersion === undefined || v.flowVersion === query.flowVersion) &&
      (query.packageVersion === undefined || v.packageVersion === query.packageVersion)
    );
  });
  return matches.sort((a, b) => versions(b).version - versions(a).version)[0];
}
