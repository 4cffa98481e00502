/**
 * Connections of the account and the three listings of what a connection reaches
 * (`{base_url}/connections/{id}/...`, spec 4.6–4.8). The connection record itself is not shown
 * by the spec; its fields here are the ones the project assumes.
 */
import { z } from "zod";
import type { RequestFn } from "../client/http";
import { collection } from "./collection";
import { parsePage, parseRecord, type Page, type PageRequest } from "./records";

export const connectionRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  url: z.string(),
});
export type ConnectionRecord = z.output<typeof connectionRecord>;
export const CONNECTION_FIELDS = Object.keys(connectionRecord.shape) as readonly (keyof ConnectionRecord)[];

/** Listing items are JSON objects whose fields the spec does not show (2.9). */
export const listingItemRecord = z.record(z.string(), z.unknown());
export type ListingItemRecord = z.output<typeof listingItemRecord>;

async function listingPage(request: RequestFn, connectionId: number, path: string, page: PageRequest, what: string): Promise<Page<ListingItemRecord>> {
  const response = await request({
    method: "GET",
    path: `/connections/${encodeURIComponent(String(connectionId))}/${path}`,
    query: { offset: page.offset, limit: page.limit },
  });
  return parsePage(listingItemRecord, response, what);
}

export function listWebAnalyticsAccounts(request: RequestFn, connectionId: number, page: PageRequest = {}): Promise<Page<ListingItemRecord>> {
  return listingPage(request, connectionId, "web_analytics/accounts", page, "a list of web analytics accounts");
}

export function listAdsPlatformCustomers(request: RequestFn, connectionId: number, page: PageRequest = {}): Promise<Page<ListingItemRecord>> {
  return listingPage(request, connectionId, "ads_platform/customers", page, "a list of ads platform customers");
}

export function listCrmObjects(request: RequestFn, connectionId: number, page: PageRequest = {}): Promise<Page<ListingItemRecord>> {
  return listingPage(request, connectionId, "crm_platform/objects", page, "a list of CRM objects");
}

/**
 * A connection as its own path answers it (`{base_url}/connections/{type}/{id}`, facts
 * "Connections"): the common fields and the type's attributes, secrets never among them.
 */
export const connectionSettingsRecord = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  type: z.string(),
  unique_id: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  url: z.string().optional(),
});
export type ConnectionSettingsRecord = z.output<typeof connectionSettingsRecord>;

const SETTINGS = "a connection";
const typePath = (type: string) => `/connections/${encodeURIComponent(type)}`;

/** A type's connections have a collection of their own (`/connections/{type}`). */
export const connectionsOfType = (type: string) => collection({ path: typePath(type), record: connectionSettingsRecord, what: SETTINGS });

export function createConnection(request: RequestFn, type: string, body: object): Promise<ConnectionSettingsRecord> {
  return connectionsOfType(type).create(request, body);
}

export function getConnectionSettings(request: RequestFn, type: string, id: string | number): Promise<ConnectionSettingsRecord> {
  return connectionsOfType(type).get(request, id);
}

/** A connection by its id alone (`GET /connections/{id}`): how an import learns its type. */
export async function getConnectionById(request: RequestFn, id: string | number): Promise<ConnectionRecord> {
  const response = await request({ method: "GET", path: `/connections/${encodeURIComponent(String(id))}` });
  return parseRecord(connectionRecord, response.body, SETTINGS);
}

export function updateConnection(request: RequestFn, type: string, id: string | number, body: object): Promise<ConnectionSettingsRecord> {
  return connectionsOfType(type).update(request, id, body);
}

export function deleteConnection(request: RequestFn, type: string, id: string | number): Promise<void> {
  return connectionsOfType(type).delete(request, id);
}

/**
 * Asks the service to reach the system with these settings, saving nothing; a failure is a 400
 * with the service's reason. Nothing is made, so sending it again is safe.
 */
export async function testConnectionSettings(request: RequestFn, type: string, body: object): Promise<void> {
  await request({ method: "POST", path: `${typePath(type)}/test`, body, idempotent: true });
}

/** The first page of the account's connections of one type, newest first; follow its `Link` for the rest. */
export function listConnectionsRequest(type: string) {
  return { method: "GET" as const, path: "/connections", query: { type, sort: "created", direction: "desc" } };
}

export async function listConnectionsOfType(request: RequestFn, type: string | undefined, page: PageRequest = {}): Promise<Page<ConnectionSettingsRecord>> {
  const query = { type: type ?? "all", sort: "id", direction: "asc", offset: page.offset, limit: page.limit };
  const response = await request({ method: "GET", path: "/connections", query });
  return parsePage(connectionSettingsRecord, response, "a list of connections");
}

export const connectionTypeRecord = z.object({
  type: z.string(),
  name: z.string(),
  description: z.string(),
  icon_url: z.string().nullable().optional(),
  groups: z.array(z.object({ group_type: z.string(), group_name: z.string() })),
});
export type ConnectionTypeRecord = z.output<typeof connectionTypeRecord>;

export async function listConnectionTypes(request: RequestFn): Promise<ConnectionTypeRecord[]> {
  const response = await request({ method: "GET", path: "/connections/types" });
  return parseRecord(z.array(connectionTypeRecord), response.body, "the connection types");
}
