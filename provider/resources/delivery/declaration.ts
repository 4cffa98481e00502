import { deliveryRecord } from "../../api/deliveries";
import { declareResource } from "../shared/declaration";
import { deliveryExport } from "./export";
import { tableOperations } from "./fields";
import { deliveryImplementation } from "./implementation";
import type { RecoverDeclaration } from "../shared/recovery";
import { createdDelivery } from "./implementation";

/** Recovering deliveries: by name and ends, made in the deployment's window; one still being set up is waited for. */
const deliveryRecover: RecoverDeclaration = {
  by: "its name",
  find: createdDelivery.find,
  unsettled: (outputs) => (outputs.status === "idle" ? "it is still being set up" : undefined),
};

export const deliveryDeclaration = declareResource({
  kind: "Delivery",
  description:
    "A source connection delivered into a destination connection every interval, through a pipeline the service sets up; `up` waits until it is enabled. The service cannot change a delivery, so any change replaces it.",
  summary: "A source connection delivered into a destination connection every interval, through a pipeline the service sets up.",
  notes: [
    "A CRM delivered into a warehouse schema, through a pipeline the service sets up itself. The service has no update for deliveries, so any change of `name`, `description`, `interval`, `source` or `destination` replaces the delivery (the new one is made and set up before the old one is deleted).",
    "",
    "`up` waits until the service has set the new delivery up and it is `enabled` (up to `timeoutSeconds`, default 1800), showing its status on the resource's row; if it turns `disabled` instead, the update fails with the service's reason and the delivery stays in the stack until it is replaced or destroyed.",
    "",
    "A source may be any connection the service reads; a destination must be a database or cloud storage connection, which the preview checks from `connection.type`. Either may be a `Connection` resource or `{ id, type }`. The destination's target schema is `schema` in the program; it is sent as `schema_name`, as the service's create example writes it, and read back as `schema`, so the two spellings never show as a change (`schema_name` is accepted in the program too; given both ways, they must name the same schema, or the preview fails naming both inputs, where the service would answer 422).",
    "",
    "`status` (`idle`, `enabled`, `disabled`), `statusMessage` (why it is disabled, such as a deleted connection), `packageId` (its pipeline), `ownerId` and the timestamps move on their own and never cause a change. A connection deleted on the service disables the delivery; `pulumi refresh` shows it.",
  ],
  implementation: deliveryImplementation,
  recover: deliveryRecover,
  export: deliveryExport,
  resourceInputs: [
    { path: "source.connection", kind: "Connection" },
    { path: "destination.connection", kind: "Connection" },
  ],
  tableOperations,
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
