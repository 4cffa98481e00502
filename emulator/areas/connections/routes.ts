import { connectionKindOf, type ListingKind } from "../../../contract/limits";
import { invalid } from "../../body";
import { sendJson } from "../../http";
import { sendPage } from "../../pagination";
import { findOwnRow, type ApiContext, type Handler, type Route } from "../../routing";
import { connectionJson, CONNECTIONS, LISTINGS, type ConnectionRow } from "./model";

/**
 * The account's connections (`/connections`, assumed: the spec shows only the listings) and the
 * three listings of what a connection reaches (spec 4.6–4.8).
 */

function listConnections(ctx: ApiContext): void {
  sendPage(ctx, ctx.store.list(CONNECTIONS, ctx.caller.account.id), (connection) => connectionJson(connection, ctx.baseUrl));
}

function getConnection(ctx: ApiContext): void {
  sendJson(ctx.res, 200, connectionJson(findOwnRow(ctx, CONNECTIONS), ctx.baseUrl));
}

/** The connection exists but cannot answer this listing: the request is valid, the target is not. */
function wrongKind(connection: ConnectionRow, kind: ListingKind): string {
  const article = /^[aeiou]/i.test(connection.type) ? "an" : "a";
  return `connection ${connection.id} is ${article} ${connection.type} connection; ${LISTINGS[kind].items} are listed for ${kind} connections`;
}

function listingOf(kind: ListingKind): Handler {
  return (ctx) => {
    const connection = findOwnRow(ctx, CONNECTIONS);
    if (connectionKindOf(connection.type) !== kind) throw invalid([wrongKind(connection, kind)]);
    sendPage(ctx, connection.listingItems);
  };
}

const listingRoutes: readonly Route[] = Object.values(LISTINGS).map((listing) => ({
  pattern: new RegExp(`^/connections/([^/]+)/${listing.path}$`),
  methods: { GET: listingOf(listing.kind) },
}));

export const connectionsRoutes: readonly Route[] = [
  { pattern: /^\/connections$/, methods: { GET: listConnections } },
  { pattern: /^\/connections\/([^/]+)$/, methods: { GET: getConnection } },
  ...listingRoutes,
];
