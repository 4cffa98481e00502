import { connectionGroupRecord } from "../../api/connection-groups";
import { declareResource } from "../shared/declaration";
import { connectionGroupExport } from "./export";
import { tableOperations } from "./fields";
import { connectionGroupImplementation } from "./implementation";
import type { RecoverDeclaration } from "../shared/recovery";
import { createdGroup } from "./implementation";

/** Recovering connection groups: the account holds a name once. */
const connectionGroupRecover: RecoverDeclaration = { by: "its name", find: createdGroup.find };

export const connectionGroupDeclaration = declareResource({
  kind: "ConnectionGroup",
  description: "A named set of the account's connections. A replacement deletes the old group first: the account allows a name once.",
  notes: [
    "`connections` are listed in the outputs as `{ id, name, type }` in id order, whatever order the program gives; only database and cloud-storage connections can join a group. Since the account allows a name once, a forced replacement (`pulumi up --replace`) deletes the old group first: `deleteBeforeReplace` defaults to true for this resource on the dynamic resources (on the plugin, set it yourself: the engine asks no provider on `--replace`, and without the option a replacement fails saying so, changing nothing).",
  ],
  implementation: connectionGroupImplementation,
  recover: connectionGroupRecover,
  export: connectionGroupExport,
  resourceInputs: [{ path: "connections.*", kind: "Connection" }],
  tableOperations,
  record: connectionGroupRecord,
  secrets: [],
  deleteBeforeReplace: true,
  example: { name: "analytics-warehouses", description: "Curated destinations", connections: [{ id: 301, type: "postgres" }] },
});

export type { ConnectionAssignmentArgs, ConnectionGroupArgs, ConnectionGroupOutputs } from "./fields";
