import { connectionSettingsRecord } from "../../api/connections";
import { declareResource } from "../shared/declaration";
import { SECRET_ATTRIBUTES } from "./attributes";
import { connectionExport } from "./export";
import { fields } from "./fields";
import { connectionProvider } from "./provider";
import type { RecoverDeclaration } from "../shared/recovery";
import { findCreatedConnection } from "./provider";
import { resourceClass } from "../shared/resource-class";
import type { ConnectionArgs, ConnectionOutputs } from "./fields";

/** Recovering connections: by name and type, made in the deployment's window. */
const connectionRecover: RecoverDeclaration = { by: "its name", find: findCreatedConnection };

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

export type { ConnectionArgs, ConnectionArgsOf, CommonConnectionArgs, ConnectionOutputs } from "./fields";
export type { ConnectionType } from "../../../contract/connection-types";

/**
 * The settings by which the service reaches a database, warehouse, bucket or service. Naming
 * the `type` gives that type's attributes; passwords, keys and tokens are stored encrypted,
 * whatever the program passes, and never printed.
 */
export const Connection = resourceClass<ConnectionArgs, ConnectionOutputs>(connectionResource);
export type Connection = InstanceType<typeof Connection>;
