import { deliveryRecord } from "../../api/deliveries";
import { declareResource } from "../shared/declaration";
import { deliveryExport } from "./export";
import { fields } from "./fields";
import { deliveryProvider } from "./provider";
import type { RecoverDeclaration } from "../shared/recovery";
import { findCreatedDelivery } from "./provider";
import { resourceClass } from "../shared/resource-class";
import type { DeliveryArgs, DeliveryOutputs } from "./fields";

/** Recovering deliveries: by name and ends, made in the deployment's window; one still being set up is waited for. */
const deliveryRecover: RecoverDeclaration = {
  by: "its name",
  find: findCreatedDelivery,
  unsettled: (outputs) => (outputs.status === "idle" ? "it is still being set up" : undefined),
};

export const deliveryResource = declareResource({
  kind: "Delivery",
  description:
    "A source connection delivered into a destination connection every interval, through a pipeline the service sets up; `up` waits until it is enabled. The service cannot change a delivery, so any change replaces it.",
  provider: deliveryProvider,
  recover: deliveryRecover,
  export: deliveryExport,
  resourceInputs: [
    { path: "source.connection", kind: "Connection" },
    { path: "destination.connection", kind: "Connection" },
  ],
  fields,
  record: deliveryRecord,
  secrets: [],
  example: {
    name: "crm to warehouse",
    interval: { amount: 6, unit: "hours" },
    source: { connection: { id: 306, type: "salesforce" }, properties: { object: "Contact" } },
    destination: { connection: { id: 302, type: "redshift" }, properties: { schema: "crm" } },
  },
});

export type { DeliveryArgs, DeliveryConnectionArgs, DeliveryEndArgs, DeliveryOutputs } from "./fields";

/**
 * A source connection delivered into a destination connection every interval, through a
 * pipeline the service sets up. `up` waits until the delivery is enabled; any change replaces it.
 */
export const Delivery = resourceClass<DeliveryArgs, DeliveryOutputs>(deliveryResource);
export type Delivery = InstanceType<typeof Delivery>;
