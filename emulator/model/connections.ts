import { FixturesError, type AccountFixture } from "../fixtures";
import { defineTable, type Row, type Store } from "../store";

/**
 * Connections are made in the service's web application; the API reads them. Their type
 * decides what they are good for: database and cloud-storage connections can join connection
 * groups (spec 2.7), while the three listing kinds serve the listings of spec 4.6–4.8.
 */

export type ListingKind = "web_analytics" | "ads_platform" | "crm_platform";
export type ConnectionKind = "database" | "cloud_storage" | ListingKind;

/** The one place that classifies connection types; types not listed here are of no kind. */
const KIND_OF_TYPE: Readonly<Record<string, ConnectionKind>> = {
  postgres: "database",
  mysql: "database",
  mariadb: "database",
  sqlserver: "database",
  oracle: "database",
  redshift: "database",
  snowflake: "database",
  bigquery: "database",
  mongodb: "database",
  db2: "database",
  vertica: "database",
  s3: "cloud_storage",
  gcs: "cloud_storage",
  azure_blob: "cloud_storage",
  sftp: "cloud_storage",
  ftp: "cloud_storage",
  hdfs: "cloud_storage",
  web_analytics: "web_analytics",
  ads_platform: "ads_platform",
  crm_platform: "crm_platform",
};

export function kindOfType(type: string): ConnectionKind | undefined {
  return Object.hasOwn(KIND_OF_TYPE, type) ? KIND_OF_TYPE[type] : undefined;
}

export function canJoinGroups(type: string): boolean {
  const kind = kindOfType(type);
  return kind === "database" || kind === "cloud_storage";
}

export interface ConnectionRow extends Row {
  name: string;
  type: string;
  /** What the connection's listing returns, in fixture order; empty for the other kinds. */
  listingItems: Record<string, unknown>[];
  createdAt: string;
  updatedAt: string;
}

export const CONNECTIONS = defineTable<ConnectionRow>("connections");

/** Where each listing's items come from in the fixtures, and how messages speak of them. */
export interface Listing {
  kind: ListingKind;
  fixtureField: "webAnalyticsAccounts" | "adsPlatformCustomers" | "crmObjects";
  /** Plural noun for messages, e.g. "web analytics accounts". */
  items: string;
}

export const LISTINGS: Readonly<Record<ListingKind, Listing>> = {
  web_analytics: { kind: "web_analytics", fixtureField: "webAnalyticsAccounts", items: "web analytics accounts" },
  ads_platform: { kind: "ads_platform", fixtureField: "adsPlatformCustomers", items: "ads platform customers" },
  crm_platform: { kind: "crm_platform", fixtureField: "crmObjects", items: "CRM objects" },
};

export function isListingKind(kind: ConnectionKind | undefined): kind is ListingKind {
  return kind !== undefined && Object.hasOwn(LISTINGS, kind);
}

type ConnectionFixture = AccountFixture["connections"][number];

/** Items given under another kind's field would never be served: a fixture mistake worth reporting. */
function listingItemsOf(account: AccountFixture, fixture: ConnectionFixture, index: number): Record<string, unknown>[] {
  const kind = kindOfType(fixture.type);
  for (const listing of Object.values(LISTINGS)) {
    if (fixture[listing.fixtureField] !== undefined && listing.kind !== kind) {
      throw new FixturesError(
        `invalid fixtures: account ${account.uid}: connections[${index}].${listing.fixtureField}: only ${listing.kind} connections list ${listing.items}, this one is ${fixture.type}`,
      );
    }
  }
  return isListingKind(kind) ? (fixture[LISTINGS[kind].fixtureField] ?? []) : [];
}

export function seedConnections(store: Store, account: AccountFixture): void {
  const now = new Date(store.clock.now()).toISOString();
  account.connections.forEach((fixture, index) => {
    // Ids come from one sequence across accounts; a reused id would overwrite another row.
    if (store.list(CONNECTIONS).some((row) => row.id === fixture.id)) {
      throw new FixturesError(`invalid fixtures: account ${account.uid}: connections[${index}].id: duplicate connection id ${fixture.id}`);
    }
    store.insert(CONNECTIONS, {
      id: fixture.id,
      accountId: account.id,
      name: fixture.name,
      type: fixture.type,
      listingItems: listingItemsOf(account, fixture, index),
      createdAt: now,
      updatedAt: now,
    });
  });
}

/** The service's JSON for a connection (fields assumed: the spec does not show them). */
export function connectionJson(connection: ConnectionRow, baseUrl: string): Record<string, unknown> {
  return {
    id: connection.id,
    name: connection.name,
    type: connection.type,
    created_at: connection.createdAt,
    updated_at: connection.updatedAt,
    url: `${baseUrl}/connections/${connection.id}`,
  };
}
