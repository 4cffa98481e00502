import type { ValidationStatus } from "../../../contract/vocabularies";
import { isoTime } from "../../clock";
import { earliestOf, type AreaLifecycle, type Due, type LifecycleState } from "../../lifecycle/state";
import { defineTable, type Row, type Store } from "../../store";

/**
 * Package validations: running → completed. Only active packages are validated, and what makes
 * a package invalid is decided in the web application, so every validation here succeeds.
 */
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

/** Simulated seconds of each timed step (`--speed N` divides them); the service documents none. */
export const VALIDATION_SECONDS = {
  /** running → completed */
  running: 3,
} as const;

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

function complete(state: LifecycleState, validation: PackageValidationRow, at: number): void {
  const time = isoTime(at);
  state.store.update(PACKAGE_VALIDATIONS, validation, { status: "completed", errors: [], statusSince: time, updatedAt: time });
}

function nextValidationTransition(state: LifecycleState, validation: PackageValidationRow): Due | undefined {
  if (validation.status !== "running") return undefined;
  return {
    at: Date.parse(validation.statusSince) + state.duration(VALIDATION_SECONDS.running),
    id: validation.id,
    apply: (at) => complete(state, validation, at),
  };
}

/** After clusters and jobs at one instant, though nothing of theirs depends on a validation. */
export const validationLifecycle: AreaLifecycle = {
  rank: 2,
  earliest: (state) => earliestOf(state.rows(PACKAGE_VALIDATIONS), (validation) => nextValidationTransition(state, validation)),
};
