import type { ListingKind } from "../../../contract/limits";
import { defineTable, type Row } from "../../store";

/**
 * Connections are made in the service's web application; the API reads them. Their type
 * decides what they are good for (`contract/limits`, CONNECTION_TYPES_BY_KIND): database and
 * cloud-storage connections can join connection groups (spec 2.7), while the three listing
 * kinds serve the listings of spec 4.6–4.8.
 */
export interface ConnectionRow extends Row {
  name: string;
  type: string;
  /** What the connection's listing returns, in fixture order; empty for the other kinds. */
  listingItems: Record<string, unknown>[];
  createdAt: string;
  updatedAt: string;
}

export const CONNECTIONS = defineTable<ConnectionRow>("connections");

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
