import { earliestOf, type AreaLifecycle, type Due, type LifecycleState } from "../../lifecycle/state";
import { finishValidation, PACKAGE_VALIDATIONS, type PackageValidationRow } from "./validations";

/** Package validations: running → completed, or failed with the rules the flow breaks (`validations.ts`). */

/** Simulated seconds of each timed step (`--speed N` divides them); the service documents none. */
export const VALIDATION_SECONDS = {
  /** running → completed or failed */
  running: 3,
} as const;

function nextValidationTransition(state: LifecycleState, validation: PackageValidationRow): Due | undefined {
  if (validation.status !== "running") return undefined;
  return {
    at: Date.parse(validation.statusSince) + state.duration(VALIDATION_SECONDS.running),
    id: validation.id,
    apply: (at) => finishValidation(state.store, validation, at),
  };
}

/** After clusters and jobs at one instant, though nothing of theirs depends on a validation. */
export const validationLifecycle: AreaLifecycle = {
  rank: 2,
  earliest: (state) => earliestOf(state.rows(PACKAGE_VALIDATIONS), (validation) => nextValidationTransition(state, validation)),
};
