import { connectionAttributes, isConnectionType } from "../../../contract/connection-types";
import type { ConnectionKind } from "../../../contract/connection-types";
import { connectionKindOf, type ListingKind } from "../../../contract/limits";
import { defineTable, type Row } from "../../store";
import { defineTopic } from "../../topics";

/**
 * Connections: made through the API (create, update, delete, tests of settings) or seeded by the
 * fixtures. Their type decides what they take (`contract/connection-types`) and what they are
 * good for (`contract/limits`, CONNECTION_TYPES_BY_KIND): database and cloud-storage connections
 * can join connection groups (spec 2.7), while the three listing kinds serve spec 4.6–4.8.
 */

export type AttributeValue = string | number | boolean | null;
export type Attributes = Record<string, AttributeValue>;

/**
 * What is kept of a secret attribute: never its text, which no response shows and no state
 * file may hold, only its SHA-256 (so an update that sends the same secret changes nothing) and
 * whether the test of settings refuses it (`settings-test.ts`).
 */
export interface SecretTrace {
  sha256: string;
  refused: boolean;
}
export type SecretTraces = Record<string, SecretTrace>;

export interface ConnectionRow extends Row {
  name: string;
  type: string;
  /** The type's non-secret attributes, defaults applied; null for one never given. */
  attributes: Attributes;
  /** Named `secrets` so the state dump (`/_emulator/state`) leaves them out too. */
  secrets: SecretTraces;
  /** What the connection's listing returns, in fixture order; empty for the other kinds. */
  listingItems: Record<string, unknown>[];
  createdAt: string;
  updatedAt: string;
}

export const CONNECTIONS = defineTable<ConnectionRow>("connections");

/** A connection as other areas see it. */
export interface ConnectionFacts {
  id: number;
  accountId: number;
  name: string;
  type: string;
  kind: ConnectionKind | undefined;
}

export function factsOf(connection: ConnectionRow): ConnectionFacts {
  return { id: connection.id, accountId: connection.accountId, name: connection.name, type: connection.type, kind: connectionKindOf(connection.type) };
}

/** A connection deleted at `at`, announced after its row is gone. */
export interface ConnectionDeleted {
  connection: ConnectionFacts;
  at: number;
}

export const CONNECTION_DELETED = defineTopic<ConnectionDeleted>("connection deletion");

/**
 * A state file written by an older emulator has connections without attributes or secrets;
 * they read as a connection seeded without attributes.
 */
export function withSettings(connection: ConnectionRow): ConnectionRow {
  connection.attributes ??= {};
  connection.secrets ??= {};
  return connection;
}

/** Where each listing is served, where its items come from in the fixtures, and how messages speak of them. */
export interface Listing {
  kind: ListingKind;
  /** Below `/connections/{id}`. */
  path: string;
  fixtureField: "webAnalyticsAccounts" | "adsPlatformCustomers" | "crmObjects";
  /** Plural noun for messages, e.g. "web analytics accounts". */
  items: string;
}

export const LISTINGS: Readonly<Record<ListingKind, Listing>> = {
  web_analytics: { kind: "web_analytics", path: "web_analytics/accounts", fixtureField: "webAnalyticsAccounts", items: "web analytics accounts" },
  ads_platform: { kind: "ads_platform", path: "ads_platform/customers", fixtureField: "adsPlatformCustomers", items: "ads platform customers" },
  crm_platform: { kind: "crm_platform", path: "crm_platform/objects", fixtureField: "crmObjects", items: "CRM objects" },
};

/** The type's attributes a response shows, in the catalogue's order. */
function shownAttributeNames(type: string): string[] {
  if (!isConnectionType(type)) return [];
  return Object.entries(connectionAttributes(type)).flatMap(([name, rule]) => (rule.secret ? [] : [name]));
}

export function connectionUrl(baseUrl: string, connection: Pick<ConnectionRow, "id" | "type">): string {
  return `${baseUrl}/connections/${connection.type}/${connection.id}`;
}

/**
 * The service's JSON for a connection (facts, "Connections": `id`, `name`, `type`, `username`,
 * `unique_id`, `created_at`, `updated_at`, `url`), with every non-secret attribute of its type
 * (the facts leave that open; chosen so a client can see what it set). Secrets never appear.
 */
export function connectionJson(connection: ConnectionRow, baseUrl: string): Record<string, unknown> {
  const stored = withSettings(connection).attributes;
  const attributes = Object.fromEntries(shownAttributeNames(connection.type).map((name) => [name, stored[name] ?? null]));
  return {
    id: connection.id,
    name: connection.name,
    type: connection.type,
    ...("username" in attributes ? { username: attributes.username } : {}),
    unique_id: `${connection.type.toUpperCase()}_CONNECTION_${connection.id}`,
    ...attributes,
    created_at: connection.createdAt,
    updated_at: connection.updatedAt,
    url: connectionUrl(baseUrl, connection),
  };
}
