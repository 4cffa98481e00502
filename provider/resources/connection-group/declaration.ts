import { connectionGroupRecord } from "../../api/connection-groups";
import { declareResource } from "../shared/declaration";
import { connectionGroupExport } from "./export";
import { fields } from "./fields";
import { connectionGroupProvider } from "./provider";
import type { RecoverDeclaration } from "../shared/recovery";
import { findCreatedGroup } from "./provider";
import * as pulumi from "@pulumi/pulumi";
import { resourceClass } from "../shared/resource-class";
import type { ConnectionGroupArgs, ConnectionGroupOutputs } from "./fields";

/** Recovering connection groups: the account holds a name once. */
const connectionGroupRecover: RecoverDeclaration = { by: "its name", find: findCreatedGroup };

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

export type { ConnectionAssignmentArgs, ConnectionGroupArgs, ConnectionGroupOutputs } from "./fields";

/**
 * A `Connection` resource given in `connections` stands for its id and type: a resource itself
 * would reach the provider as a reference, not as the values it needs.
 */
function assignmentsOf(connections: unknown): unknown {
  if (!Array.isArray(connections)) return connections;
  return connections.map((item: unknown) =>
    pulumi.CustomResource.isInstance(item) ? { id: item.id, type: (item as unknown as { type: pulumi.Output<string> }).type } : item,
  );
}

/**
 * A named set of the account's connections. `deleteBeforeReplace` defaults to true: a forced
 * replacement keeps the name, which the account allows only once. Options given here win.
 */
export const ConnectionGroup = resourceClass<ConnectionGroupArgs, ConnectionGroupOutputs>(connectionGroupResource, {
  prepare: (args) => ({ ...args, connections: assignmentsOf(args.connections) }),
});
export type ConnectionGroup = InstanceType<typeof ConnectionGroup>;
