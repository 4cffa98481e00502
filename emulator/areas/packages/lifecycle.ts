import { isoTime } from "../../clock";
import { earliestOf, type AreaLifecycle, type Due, type LifecycleState } from "../../lifecycle/state";
import { PACKAGE_VALIDATIONS, type PackageValidationRow } from "./validations";

/**
 * Package validations: running → completed. Only active packages are validated, and what makes
 * a package invalid is decided in the web application, so every validation here succeeds.
 */

/** Simulated seconds of each timed step (`--speed N` divides them); the service documents none. */
export const VALIDATION_SECONDS = {
  /** running → completed */
  running: 3,
} as const;

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
