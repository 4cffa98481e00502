/**
 * What a connection reaches in the system it connects to (spec 4.6 to 4.8). The spec does not
 * show the items' fields, so they are returned as the service sends them, every page of them.
 */
import { z } from "zod";
import * as api from "../api/connections";
import type { Page } from "../api/records";
import type { RequestFn } from "../client/http";
import { collectAllPages } from "../client/pagination";
import { programFunction, type FunctionContext } from "./context";
import { camelCased, type CamelCased } from "../api/records";
import { CONNECTION_TYPE_NAMES } from "../../contract/connection-types";
import { parseArguments, recordId } from "./arguments";

export interface ListConnectionItemsArgs {
  /** A number, or a string of digits. */
  connectionId: number | string;
}

/** An item as the service returns it. */
export type ConnectionItem = Record<string, unknown>;

type PageCall = (request: RequestFn, connectionId: number) => Promise<Page<ConnectionItem>>;

const listingArgs = z.strictObject({ connectionId: recordId() });

async function listAll(ctx: FunctionContext, functionName: string, what: string, pageCall: PageCall, args: ListConnectionItemsArgs): Promise<ConnectionItem[]> {
  const { connectionId } = parseArguments(functionName, listingArgs, args);
  return collectAllPages(ctx.request, (request) => pageCall(request, connectionId), api.listingItemRecord, { what });
}

/** The analytics accounts available through a web analytics connection. */
export const listWebAnalyticsAccounts = programFunction(async function listWebAnalyticsAccounts(
  ctx: FunctionContext,
  args: ListConnectionItemsArgs,
): Promise<ConnectionItem[]> {
  return listAll(ctx, "listWebAnalyticsAccounts", "web analytics accounts", api.listWebAnalyticsAccounts, args);
});

/** The customers available through an ads platform connection. */
export const listAdsPlatformCustomers = programFunction(async function listAdsPlatformCustomers(
  ctx: FunctionContext,
  args: ListConnectionItemsArgs,
): Promise<ConnectionItem[]> {
  return listAll(ctx, "listAdsPlatformCustomers", "ads platform customers", api.listAdsPlatformCustomers, args);
});

/** The objects available through a CRM platform connection. */
export const listCrmObjects = programFunction(async function listCrmObjects(ctx: FunctionContext, args: ListConnectionItemsArgs): Promise<ConnectionItem[]> {
  return listAll(ctx, "listCrmObjects", "CRM objects", api.listCrmObjects, args);
});

export type ConnectionTypeInfo = CamelCased<api.ConnectionTypeRecord>;
/** A connection's settings as the service shows them: never its password, keys or tokens. */
export type ConnectionInfo = CamelCased<api.ConnectionSettingsRecord> & Record<string, unknown>;

export interface GetConnectionArgs {
  /** The connection's type, e.g. `postgres`: it is part of the connection's address. */
  type: string;
  /** A number, or a string of digits (such as a Connection's `id`). */
  id: number | string;
}

export interface ListConnectionsArgs {
  /** Only connections of this type. */
  type?: string;
}

const typeArgument = z.enum(CONNECTION_TYPE_NAMES as [string, ...string[]], { message: `must be a connection type: ${CONNECTION_TYPE_NAMES.join(", ")}` });
const getArgs = z.strictObject({ type: typeArgument, id: recordId() });
const listArgs = z.strictObject({ type: typeArgument.optional() });

/** The connection types the service offers, as its catalogue lists them. */
export const getConnectionTypes = programFunction(async function getConnectionTypes(ctx: FunctionContext): Promise<ConnectionTypeInfo[]> {
  return (await api.listConnectionTypes(ctx.request)).map((record) => camelCased(record));
});

export const getConnection = programFunction(async function getConnection(ctx: FunctionContext, args: GetConnectionArgs): Promise<ConnectionInfo> {
  const { type, id } = parseArguments("getConnection", getArgs, args);
  return camelCased(await api.getConnectionSettings(ctx.request, type, id)) as ConnectionInfo;
});

/** The account's connections, every page, oldest first; of one type when `type` is given. */
export const listConnections = programFunction(async function listConnections(ctx: FunctionContext, args: ListConnectionsArgs = {}): Promise<ConnectionInfo[]> {
  const { type } = parseArguments("listConnections", listArgs, args);
  const all = await collectAllPages(ctx.request, (request) => api.listConnectionsOfType(request, type), api.connectionSettingsRecord, { what: "connections" });
  return all.map((record) => camelCased(record) as ConnectionInfo);
});
