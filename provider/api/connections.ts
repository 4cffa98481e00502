/**
 * Connections of the account and the three listings of what a connection reaches
 * (`{base_url}/connections/{id}/...`, spec 4.6–4.8). The connection record itself is not shown
 * by the spec; its fields here are the ones the project assumes.
 */
import { z } from "zod";
import type { RequestFn } from "../client/http";
import { parsePage, type Page, type PageRequest } from "./records";

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
