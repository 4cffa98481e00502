import { connectionSettingsRecord } from "../../api/connections";
import { declareResource } from "../shared/declaration";
import { SECRET_ATTRIBUTES } from "./attributes";
import { connectionExport } from "./export";
import { fields } from "./fields";
import { connectionProvider } from "./provider";
import { connectionRecover } from "./recover";

export const connectionResource = declareResource({
  kind: "Connection",
  description:
    "The settings by which the service reaches a database, warehouse, bucket or service. Passwords, keys and tokens are kept encrypted and never printed.",
  provider: connectionProvider,
  recover: connectionRecover,
  export: connectionExport,
  fields,
  record: connectionSettingsRecord,
  secrets: SECRET_ATTRIBUTES,
  example: {
    type: "postgres",
    name: "warehouse",
    host: "db.example.com",
    database: "analytics",
    username: "etl_loader",
    password: { secretConfig: "warehousePassword" },
  },
});
