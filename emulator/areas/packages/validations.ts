import type { ValidationStatus } from "../../../contract/vocabularies";
import { isoTime } from "../../clock";
import { defineTable, type Row, type Store } from "../../store";

/** Package validations (facts, "Packages"): a check of one package, which completes on its own. */
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

export function insertValidation(store: Store, accountId: number, packageId: number): PackageValidationRow {
  const now = isoTime(store.clock.now());
  return store.insert(PACKAGE_VALIDATIONS, { accountId, packageId, status: "running", errors: [], statusSince: now, createdAt: now, updatedAt: now });
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
