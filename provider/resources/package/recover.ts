/**
 * Recovering packages: by name and flow, made in the deployment's window. A package the killed
 * create made was not validated yet (or not to its end), so the next `up` validates it.
 */
import type { RecoverDeclaration } from "../shared/recovery";
import { findCreatedPackage } from "./provider";

export const packageRecover: RecoverDeclaration = {
  by: "its name",
  find: findCreatedPackage,
  unsettled: (outputs) => (outputs.validate === false || outputs.validationStatus === "completed" ? undefined : "its validation has not passed yet"),
};
