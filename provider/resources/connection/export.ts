/**
 * Exporting connections: the listing of every type holds each connection's settings. The secrets
 * a type needs (a password, or a token in its place) are never returned, so the program reads
 * them from the stack's configuration.
 */
import { connectionSettingsRecord, type ConnectionSettingsRecord } from "../../api/connections";
import { connectionAttributes, isConnectionType } from "../../../contract/connection-types";
import type { ExportDeclaration } from "../shared/exported";
import { camelCaseOf } from "./attributes";

/** The secret attributes a create of the type cannot do without. */
function neededSecrets(type: string): string[] {
  if (!isConnectionType(type)) return [];
  return Object.entries(connectionAttributes(type))
    .filter(([, rule]) => rule.secret && (rule.required || rule.requiredUnless !== undefined))
    .map(([name]) => camelCaseOf(name));
}

export const connectionExport: ExportDeclaration<ConnectionSettingsRecord> = {
  listing: { method: "GET", path: "/connections", query: { type: "all", sort: "id", direction: "asc", limit: 100 } },
  item: connectionSettingsRecord,
  name: (connection) => String(connection.name),
  unrepresentable: (connection) => (isConnectionType(String(connection.type)) ? undefined : `its type ${connection.type} is not one the provider knows`),
  inputs: (inputs, connection, context) => ({
    ...inputs,
    ...Object.fromEntries(neededSecrets(String(connection.type)).map((name) => [name, context.secret(name)])),
  }),
};
