import { isConnectionType } from "../../../contract/connection-types";
import type { Store } from "../../store";
import { CONNECTIONS, factsOf, withSettings, type ConnectionFacts } from "./model";
import { settingsFailure } from "./settings-test";

/**
 * What other areas may know of connections, without their rows: what a connection is, whether
 * its test would pass now, and (to the areas that hear `CONNECTION_DELETED`) when one is
 * deleted. Packages validate and run flows through it; deliveries and groups let a deleted one go.
 */

export { CONNECTION_DELETED, type ConnectionFacts } from "./model";

export function connectionFacts(store: Store, accountId: number, id: number): ConnectionFacts | undefined {
  const connection = store.find(CONNECTIONS, accountId, id);
  return connection === undefined ? undefined : factsOf(connection);
}

/** Why the connection's test of its saved settings fails now, or undefined when it passes. */
export function connectionTestFailure(store: Store, accountId: number, id: number): string | undefined {
  const found = store.find(CONNECTIONS, accountId, id);
  if (found === undefined) return `connection ${id} does not exist`;
  const connection = withSettings(found);
  // A type without settings (seeded for its listing alone) has nothing to test.
  if (!isConnectionType(connection.type)) return undefined;
  return settingsFailure(connection.type, connection.attributes, connection.secrets);
}
