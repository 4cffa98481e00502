import { connectionGroupRecord } from "../../api/connection-groups";
import { declareResource } from "../shared/declaration";
import { connectionGroupExport } from "./export";
import { fields } from "./fields";
import { connectionGroupProvider } from "./provider";
import { connectionGroupRecover } from "./recover";

export const connectionGroupResource = declareResource({
  kind: "ConnectionGroup",
  description: "A named set of the account's connections. A replacement deletes the old group first: the account allows a name once.",
  provider: connectionGroupProvider,
  recover: connectionGroupRecover,
  export: connectionGroupExport,
  fields,
  record: connectionGroupRecord,
  secrets: [],
  deleteBeforeReplace: true,
  example: { name: "analytics-warehouses", description: "Curated destinations", connections: [{ id: 301, type: "postgres" }] },
});
