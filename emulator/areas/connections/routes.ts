import { z } from "zod";
import { isConnectionType, type ConnectionType } from "../../../contract/connection-types";
import { connectionKindOf, type ListingKind } from "../../../contract/limits";
import { invalid, parseBody, readObjectBody, readOptionalObjectBody } from "../../body";
import { isoTime } from "../../clock";
import { HttpError, notFound, sendJson } from "../../http";
import { sendPage } from "../../pagination";
import { readTimeFilter } from "../../query";
import { findOwnRow, type ApiContext, type Handler, type Route } from "../../routing";
import { sortRecords, type SortKeys } from "../../sorting";
import { announce } from "../../topics";
import { readChangedSettings, readNewSettings, type ConnectionSettings } from "./attributes";
import { connectionTypesRoute } from "./catalogue";
import { CONNECTION_DELETED, connectionJson, CONNECTIONS, factsOf, LISTINGS, withSettings, type ConnectionRow } from "./model";
import { settingsFailure } from "./settings-test";

/**
 * The account's connections (facts, "Connections"): the types catalogue, create, get, update and
 * delete by type, the list, tests of settings, and the three listings of what a connection
 * reaches (spec 4.6–4.8). `GET /connections/{id}` without the type is kept beside the typed path.
 */

const sortKeys: SortKeys<ConnectionRow> = {
  id: (connection) => connection.id,
  name: (connection) => connection.name,
  type: (connection) => connection.type,
  created: (connection) => connection.createdAt,
  updated: (connection) => connection.updatedAt,
};

/** The facts' defaults: by `name`, `desc`. */
const DEFAULT_SORT = "name";

function json(ctx: ApiContext): (connection: ConnectionRow) => Record<string, unknown> {
  return (connection) => connectionJson(connection, ctx.baseUrl);
}

/** A type in a create's path that the service does not know names nothing to create. */
function typeToCreate(ctx: ApiContext): ConnectionType {
  const type = ctx.params[0] ?? "";
  if (!isConnectionType(type)) throw new HttpError(404, `${type} is not a connection type; GET /connections/types lists them`);
  return type;
}

/** The connection `/connections/:type/:id` names: of this account, and of that type, else 404. */
function findTyped(ctx: ApiContext): ConnectionRow & { type: ConnectionType } {
  const connection = findOwnRow(ctx, CONNECTIONS, 1);
  if (connection.type !== ctx.params[0] || !isConnectionType(connection.type)) throw notFound();
  return withSettings(connection) as ConnectionRow & { type: ConnectionType };
}

/** `type=postgres,s3`: any of the listed types; `all` (or none) for every type. */
function readTypeFilter(query: URLSearchParams): readonly string[] | undefined {
  const text = query.get("type");
  if (text === null || text === "all") return undefined;
  const types = text.split(",").map((type) => type.trim());
  const unknown = types.filter((type) => !isConnectionType(type));
  if (unknown.length > 0) {
    throw new HttpError(
      400,
      `type must be all or a comma-separated list of connection types (GET /connections/types lists them); not one: ${unknown.join(", ")}`,
    );
  }
  return types;
}

function listConnections(ctx: ApiContext): void {
  const types = readTypeFilter(ctx.query);
  const since = readTimeFilter(ctx.query, "since");
  const connections = ctx.store
    .list(CONNECTIONS, ctx.caller.account.id)
    .filter((connection) => (types === undefined || types.includes(connection.type)) && (since === undefined || Date.parse(connection.updatedAt) >= since));
  sendPage(ctx, sortRecords(connections, ctx.query, sortKeys, "desc", DEFAULT_SORT), json(ctx));
}

async function createConnection(ctx: ApiContext): Promise<void> {
  const type = typeToCreate(ctx);
  const settings = readNewSettings(type, await readObjectBody(ctx.req));
  const time = isoTime(ctx.store.clock.now());
  const connection = ctx.store.insert(CONNECTIONS, {
    accountId: ctx.caller.account.id,
    type,
    ...settings,
    listingItems: [],
    createdAt: time,
    updatedAt: time,
  });
  sendJson(ctx.res, 201, json(ctx)(connection));
}

function getById(ctx: ApiContext): void {
  sendJson(ctx.res, 200, json(ctx)(findOwnRow(ctx, CONNECTIONS)));
}

function getTyped(ctx: ApiContext): void {
  sendJson(ctx.res, 200, json(ctx)(findTyped(ctx)));
}

function differs(connection: ConnectionRow, settings: ConnectionSettings): boolean {
  const before = { name: connection.name, attributes: connection.attributes, secrets: connection.secrets };
  return JSON.stringify(before) !== JSON.stringify(settings);
}

/** An update that changes nothing leaves `updated_at` alone. */
async function updateConnection(ctx: ApiContext): Promise<void> {
  // A missing connection is reported before what is wrong with the body meant for it.
  const raw = await readObjectBody(ctx.req);
  const connection = findTyped(ctx);
  const settings = readChangedSettings(connection.type, connection, raw);
  if (differs(connection, settings)) {
    ctx.store.update(CONNECTIONS, connection, { ...settings, updatedAt: isoTime(ctx.store.clock.now()) });
  }
  sendJson(ctx.res, 200, json(ctx)(connection));
}

/** Answers 200 with the deleted connection, as the service does for every delete; the areas that use it are told (groups let it go). */
function deleteConnection(ctx: ApiContext): void {
  const connection = findTyped(ctx);
  const body = json(ctx)(connection);
  const now = ctx.store.clock.now();
  ctx.store.remove(CONNECTIONS, connection);
  announce(ctx.store, CONNECTION_DELETED, { connection: factsOf(connection), at: now });
  sendJson(ctx.res, 200, body);
}

function sendTestOutcome(ctx: ApiContext, failure: string | undefined): void {
  if (failure === undefined) sendJson(ctx.res, 200, true);
  else sendJson(ctx.res, 400, { error_message: failure });
}

/** Unsaved settings: the body a create takes, checked the same way (422), then tested (`settings-test.ts`). */
async function testNewSettings(ctx: ApiContext): Promise<void> {
  const type = typeToCreate(ctx);
  const settings = readNewSettings(type, await readObjectBody(ctx.req));
  sendTestOutcome(ctx, settingsFailure(type, settings.attributes, settings.secrets));
}

/** Saved settings; takes no body, and an empty object is accepted as "nothing to add". */
async function testSavedSettings(ctx: ApiContext): Promise<void> {
  const raw = await readOptionalObjectBody(ctx.req);
  const connection = findTyped(ctx);
  parseBody(z.strictObject({}), raw ?? {});
  sendTestOutcome(ctx, settingsFailure(connection.type, connection.attributes, connection.secrets));
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

/** Fixed segments (`types`, `test`) come before the segments that name a type or an id. */
export const connectionsRoutes: readonly Route[] = [
  { pattern: /^\/connections$/, methods: { GET: listConnections } },
  connectionTypesRoute,
  { pattern: /^\/connections\/([^/]+)\/test$/, methods: { POST: testNewSettings } },
  { pattern: /^\/connections\/([^/]+)\/([^/]+)\/test$/, methods: { POST: testSavedSettings } },
  ...listingRoutes,
  { pattern: /^\/connections\/([^/]+)\/([^/]+)$/, methods: { GET: getTyped, PUT: updateConnection, DELETE: deleteConnection } },
  { pattern: /^\/connections\/([^/]+)$/, methods: { GET: getById, POST: createConnection } },
];
