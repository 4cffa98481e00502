import { resourceClass } from "../shared/resource-class";
import { fields, type ConnectionGroupArgs, type ConnectionGroupOutputs } from "./fields";

export type { ConnectionAssignmentArgs, ConnectionGroupArgs, ConnectionGroupOutputs } from "./fields";

/**
 * A named set of the account's connections. `deleteBeforeReplace` defaults to true: a forced
 * replacement keeps the name, which the account allows only once. Options given here win.
 */
export const ConnectionGroup = resourceClass<ConnectionGroupArgs, ConnectionGroupOutputs>("ConnectionGroup", fields.outputNames, {
  defaults: { deleteBeforeReplace: true },
});
export type ConnectionGroup = InstanceType<typeof ConnectionGroup>;
