import { isConnectionType, type ConnectionKind } from "../../../contract/connection-types";
import { connectionKindOf } from "../../../contract/limits";
import type { Store } from "../../store";
import { CONNECTIONS, withSettings, type ConnectionRow } from "./model";
import { settingsFailure } from "./settings-test";

/**
 * What other areas may know of connections, without their rows: what a connection is, whether
 * its test would pass now, and (to the areas that declare `Area.onConnectionDeleted`) when one is
 * deleted. Packages validate and run flows through it; deliveries and groups let a deleted one go.
 */

export interface ConnectionFacts {
  id: number;
  accountId: number;
  name: string;
  type: string;
  kind: ConnectionKind | undefined;
}

function factsOf(connection: ConnectionRow): ConnectionFacts {
  return { id: connection.id, accountId: connection.accountId, name: connection.name, type: connection.type, kind: connectionKindOf(connection.type) };
}

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

/** Called inside the delete's request, after the row is gone: it must not wait for anything. */
export type ConnectionDeletedListener = (store: Store, deleted: ConnectionFacts, at: number) => void;

/** Tells every area of the store that listens (`Area.onConnectionDeleted`) that the connection is gone. */
export function announceConnectionDeleted(store: Store, connection: ConnectionRow, at: number): void {
  const deleted = factsOf(connection);
  for (const area of store.areas) area.onConnectionDeleted?.(store, deleted, at);
}
