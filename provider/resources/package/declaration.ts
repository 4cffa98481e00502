import { packageStateRecord } from "../../api/packages";
import { declareResource } from "../shared/declaration";
import { packageExport } from "./export";
import { fields } from "./fields";
import { packageProvider } from "./provider";
import { packageRecover } from "./recover";

export const packageResource = declareResource({
  kind: "Package",
  description:
    "A data flow the service runs. Validated after each change unless `validate` is false: an invalid package fails `up` with each broken rule named and stays in the stack. Destroy archives it, as the service's delete does.",
  provider: packageProvider,
  recover: packageRecover,
  export: packageExport,
  fields,
  record: packageStateRecord,
  secrets: [],
  example: {
    name: "orders to warehouse",
    variables: { since: "2026-01-01" },
    dataFlow: {
      components: [
        { name: "orders", type: "source", connection: { id: 301 }, table: "orders" },
        { name: "recent", type: "filter", condition: "created_at > '${since}'" },
        { name: "warehouse", type: "destination", connection: { id: 302 }, table: "recent_orders" },
      ],
      edges: [
        { from: "orders", to: "recent" },
        { from: "recent", to: "warehouse" },
      ],
    },
  },
});
