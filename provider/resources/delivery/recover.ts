/** Recovering deliveries: by name and ends, made in the deployment's window; one still being set up is waited for. */
import type { RecoverDeclaration } from "../shared/recovery";
import { findCreatedDelivery } from "./provider";

export const deliveryRecover: RecoverDeclaration = {
  by: "its name",
  find: findCreatedDelivery,
  unsettled: (outputs) => (outputs.status === "idle" ? "it is still being set up" : undefined),
};
