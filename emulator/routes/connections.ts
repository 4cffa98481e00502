import { HttpError, notFound, sendJson } from "../http";
import { CONNECTIONS, connectionJson, kindOfType, LISTINGS, type ConnectionRow, type ListingKind } from "../model/connections";
import { paginate } from "../pagination";
import { parseId, type ApiContext, type Handler, type Route } from "../routing";

/**
 * The account's connections (`/connections`, assumed: the spec shows only the listings) and the
 * three listings of what a connection reaches (spec 4.6–4.8).
 */

function sendPage(ctx: ApiContext, items: readonly unknown[]): void {
  const page = paginate(items, ctx.query, { origin: ctx.origin, pathname: ctx.pathname });
  sendJson(ctx.res, 200, page.items, page.headers);
}

function findConnection(ctx: ApiContext): ConnectionRow {
  const connection = ctx.store.find(CONNECTIONS, ctx.caller.account.id, parseId(ctx.params[0]));
  if (connection === undefined) throw notFound();
  return connection;
}

function listConnections(ctx: ApiContext): void {
  const connections = ctx.store.list(CONNECTIONS, ctx.caller.account.id);
  sendPage(ctx, connections.map((connection) => connectionJson(connection, ctx.baseUrl)));
}

function getConnection(ctx: ApiContext): void {
  sendJson(ctx.res, 200, connectionJson(findConnection(ctx), ctx.baseUrl));
}

/** The connection exists but cannot answer this listing: the request is valid, the target is not. */
function wrongKind(connection: ConnectionRow, kind: ListingKind): HttpError {
  const article = /^[aeiou]/i.test(connection.type) ? "an" : "a";
  return new HttpError(
    422,
    `connection ${connection.id} is ${article} ${connection.type} connection; ${LISTINGS[kind].items} are listed for ${kind} connections`,
  );
}

function listingOf(kind: ListingKind): Handler {
  return (ctx) => {
    const connection = findConnection(ctx);
    if (kindOfType(connection.type) !== kind) throw wrongKind(connection, kind);
    sendPage(ctx, connection.listingItems);
  };
}

export const connectionsRoutes: readonly Route[] = [
  { pattern: /^\/connections$/, methods: { GET: listConnections } },
  { pattern: /^\/connections\/([^/]+)$/, methods: { GET: getConnection } },
  { pattern: /^\/connections\/([^/]+)\/web_analytics\/accounts$/, methods: { GET: listingOf("web_analytics") } },
  { pattern: /^\/connections\/([^/]+)\/ads_platform\/customers$/, methods: { GET: listingOf("ads_platform") } },
  { pattern: /^\/connections\/([^/]+)\/crm_platform\/objects$/, methods: { GET: listingOf("crm_platform") } },
];
