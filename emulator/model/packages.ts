import { isoTime } from "../clock";
import type { AccountFixture, PackageRun } from "../fixtures";
import { defineTable, type Row, type Store } from "../store";

/**
 * Packages are designed in the service's web application, so the API only reads them and they
 * come from fixtures alone. `run` says how every job of the package behaves in the emulator;
 * it is never part of a response.
 */

export { PACKAGE_STATUSES, type PackageStatus } from "../../provider/api/packages";
import { VALIDATION_STATUSES, type PackageStatus, type ValidationStatus } from "../../contract/vocabularies";

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

export { VALIDATION_STATUSES, type ValidationStatus };

export interface PackageValidationRow extends Row {
  packageId: number;
  status: ValidationStatus;
  errors: { message: string }[];
  /** When the validation entered its status: its lifecycle is timed from here. */
  statusSince: string;
  createdAt: string;
  updatedAt: string;
}

export const PACKAGE_VALIDATIONS = defineTable<PackageValidationRow>("packageValidations");

/** `{origin}/{uid}`: where the web application shows a record, for `html_url`. */
export function webAppUrl(baseUrl: string): string {
  return baseUrl.replace(/\/api$/, "");
}

export function seedPackages(store: Store, account: AccountFixture): void {
  const now = isoTime(store.clock.now());
  for (const pkg of account.packages) {
    store.insert(PACKAGES, {
      id: pkg.id,
      accountId: account.id,
      name: pkg.name,
      description: pkg.description,
      variables: pkg.variables,
      ownerId: pkg.ownerId ?? account.users[0]!.id,
      status: pkg.status,
      run: pkg.run,
      createdAt: now,
      updatedAt: now,
    });
  }
}

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

export function validationJson(validation: PackageValidationRow, baseUrl: string): Record<string, unknown> {
  return {
    id: validation.id,
    package_id: validation.packageId,
    status: validation.status,
    errors: validation.errors,
    created_at: validation.createdAt,
    updated_at: validation.updatedAt,
    url: `${baseUrl}/packages/${validation.packageId}/validations/${validation.id}`,
  };
}
