/** Exporting connection groups: their connections as references to the exported connections. */
import { connectionGroupRecord, type ConnectionGroupRecord } from "../../api/connection-groups";
import { withConnectionReference, type ExportDeclaration } from "../shared/exported";

export const connectionGroupExport: ExportDeclaration<ConnectionGroupRecord> = {
  listing: { method: "GET", path: "/connection_groups", query: { limit: 100 } },
  item: connectionGroupRecord,
  name: (group) => group.name,
  inputs: (inputs, _group, context) => {
    const connections = inputs.connections as Array<{ id: number; type: string }> | undefined;
    return connections === undefined ? inputs : { ...inputs, connections: connections.map((item) => withConnectionReference(item, context)) };
  },
};
