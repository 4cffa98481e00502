import type { PackageStatus } from "../../../contract/vocabularies";
import { defineTable, type Row } from "../../store";
import { webAppUrl } from "../../routing";
import type { PackageRun } from "./fixtures";

/**
 * Packages are designed in the service's web application, so the API only reads them and they
 * come from fixtures alone. `run` says how every job of the package behaves in the emulator;
 * it is never part of a response.
 */
export interface PackageRow extends Row {
  name: string;
  description: string;
  variables: Record<string, string>;
  ownerId: number;
  status: PackageStatus;
  run: PackageRun;
  createdAt: string;
  updatedAt: string;
}

export const PACKAGES = defineTable<PackageRow>("packages");

/** The service's JSON for a package (spec section 2.4). */
export function packageJson(pkg: PackageRow, baseUrl: string): Record<string, unknown> {
  return {
    id: pkg.id,
    name: pkg.name,
    description: pkg.description,
    variables: pkg.variables,
    owner_id: pkg.ownerId,
    created_at: pkg.createdAt,
    updated_at: pkg.updatedAt,
    url: `${baseUrl}/packages/${pkg.id}`,
    html_url: `${webAppUrl(baseUrl)}/packages/${pkg.id}`,
    status: pkg.status,
  };
}
