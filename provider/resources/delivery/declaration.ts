import { deliveryRecord } from "../../api/deliveries";
import { declareResource } from "../shared/declaration";
import { deliveryExport } from "./export";
import { fields } from "./fields";
import { deliveryProvider } from "./provider";
import { deliveryRecover } from "./recover";

export const deliveryResource = declareResource({
  kind: "Delivery",
  description:
    "A source connection delivered into a destination connection every interval, through a pipeline the service sets up; `up` waits until it is enabled. The service cannot change a delivery, so any change replaces it.",
  provider: deliveryProvider,
  recover: deliveryRecover,
  export: deliveryExport,
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
