/**
 * What a connection reaches in the system it connects to (spec 4.6 to 4.8). The spec does not
 * show the items' fields, so they are returned as the service sends them, every page of them.
 */
import { z } from "zod";
import * as api from "../api/connections";
import type { Page } from "../api/records";
import type { RequestFn } from "../client/http";
import { collectAllPages } from "../client/pagination";
import { programRequest } from "../context";
import { parseArguments, recordId } from "./arguments";

export interface ListConnectionItemsArgs {
  /** A number, or a string of digits. */
  connectionId: number | string;
}

/** An item as the service returns it. */
export type ConnectionItem = Record<string, unknown>;

type PageCall = (request: RequestFn, connectionId: number) => Promise<Page<ConnectionItem>>;

const listingArgs = z.strictObject({ connectionId: recordId() });

async function listAll(functionName: string, what: string, pageCall: PageCall, args: ListConnectionItemsArgs): Promise<ConnectionItem[]> {
  const { connectionId } = parseArguments(functionName, listingArgs, args);
  return collectAllPages(programRequest(), (request) => pageCall(request, connectionId), api.listingItemRecord, { what });
}

/** The analytics accounts available through a web analytics connection. */
export function listWebAnalyticsAccounts(args: ListConnectionItemsArgs): Promise<ConnectionItem[]> {
  return listAll("listWebAnalyticsAccounts", "web analytics accounts", api.listWebAnalyticsAccounts, args);
}

/** The customers available through an ads platform connection. */
export function listAdsPlatformCustomers(args: ListConnectionItemsArgs): Promise<ConnectionItem[]> {
  return listAll("listAdsPlatformCustomers", "ads platform customers", api.listAdsPlatformCustomers, args);
}

/** The objects available through a CRM platform connection. */
export function listCrmObjects(args: ListConnectionItemsArgs): Promise<ConnectionItem[]> {
  return listAll("listCrmObjects", "CRM objects", api.listCrmObjects, args);
}
