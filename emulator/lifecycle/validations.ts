import { isoTime } from "../clock";
import { PACKAGE_VALIDATIONS, type PackageValidationRow } from "../model/packages";
import { LIFECYCLE_SECONDS } from "./durations";
import type { LifecycleState, Transition } from "./state";

/**
 * Package validations: running → completed. Only active packages are validated, and what makes
 * a package invalid is decided in the web application, so every validation here succeeds.
 */

const VALIDATION_RANK = 2;

function complete(state: LifecycleState, validation: PackageValidationRow, at: number): void {
  const time = isoTime(at);
  state.store.update(PACKAGE_VALIDATIONS, validation, { status: "completed", errors: [], statusSince: time, updatedAt: time });
}

export function nextValidationTransition(state: LifecycleState, validation: PackageValidationRow): Transition | undefined {
  if (validation.status !== "running") return undefined;
  return {
    at: Date.parse(validation.statusSince) + state.duration(LIFECYCLE_SECONDS.validation.running),
    rank: VALIDATION_RANK,
    id: validation.id,
    apply: (at) => complete(state, validation, at),
  };
}
