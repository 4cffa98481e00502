import { resourceClass } from "../shared/resource-class";
import { connectionResource } from "./declaration";
import type { ConnectionArgs, ConnectionOutputs } from "./fields";

export type { ConnectionArgs, ConnectionArgsOf, CommonConnectionArgs, ConnectionOutputs } from "./fields";
export type { ConnectionType } from "../../../contract/connection-types";

/**
 * The settings by which the service reaches a database, warehouse, bucket or service. Naming
 * the `type` gives that type's attributes; passwords, keys and tokens are stored encrypted,
 * whatever the program passes, and never printed.
 */
export const Connection = resourceClass<ConnectionArgs, ConnectionOutputs>(connectionResource);
export type Connection = InstanceType<typeof Connection>;
