import { HttpError, notFound, sendJson } from "../http";
import { readObjectBody } from "../body";
import { findNotificationOfUser, markRead, notificationJson, notificationsOfUser, type NotificationRow } from "../model/notifications";
import { paginate } from "../pagination";
import { parseId, type ApiContext, type Route } from "../routing";

/**
 * The caller's own notifications: marking them read is in the spec (4.10); listing and
 * getting them are assumed. Other users of the account neither see nor mark them.
 */

const READ_FILTERS: Readonly<Record<string, boolean>> = { true: true, false: false };

function readFilter(query: URLSearchParams): boolean | undefined {
  const text = query.get("read");
  if (text === null) return undefined;
  const value = Object.hasOwn(READ_FILTERS, text) ? READ_FILTERS[text] : undefined;
  if (value === undefined) throw new HttpError(400, "read must be true or false");
  return value;
}

function ownNotifications(ctx: ApiContext): NotificationRow[] {
  return notificationsOfUser(ctx.store, ctx.caller.account.id, ctx.caller.user.id);
}

function listNotifications(ctx: ApiContext): void {
  const read = readFilter(ctx.query);
  const notifications = ownNotifications(ctx).filter((notification) => read === undefined || notification.read === read);
  const page = paginate(notifications, ctx.query, { origin: ctx.origin, pathname: ctx.pathname });
  sendJson(ctx.res, 200, page.items.map((notification) => notificationJson(notification, ctx.baseUrl)), page.headers);
}

function findOwn(ctx: ApiContext, id: number): NotificationRow {
  const notification = findNotificationOfUser(ctx.store, ctx.caller.account.id, ctx.caller.user.id, id);
  if (notification === undefined) throw notFound();
  return notification;
}

function getNotification(ctx: ApiContext): void {
  sendJson(ctx.res, 200, notificationJson(findOwn(ctx, parseId(ctx.params[0])), ctx.baseUrl));
}

/** Sending no body at all is the natural way to say "all", so it needs no Content-Type. */
function hasNoBody(ctx: ApiContext): boolean {
  const { headers } = ctx.req;
  return headers["transfer-encoding"] === undefined && (headers["content-length"] === undefined || headers["content-length"] === "0");
}

/** The notification to mark, or undefined for all of them. */
async function readMarkTarget(ctx: ApiContext): Promise<number | undefined> {
  if (hasNoBody(ctx)) return undefined;
  const body = await readObjectBody(ctx.req);
  const unknown = Object.keys(body).filter((key) => key !== "id");
  if (unknown.length > 0) throw new HttpError(422, unknown.map((key) => `${key} is not a known field`).join("; "));
  if (!("id" in body)) return undefined;
  const id: unknown = body.id;
  // null is refused rather than read as "all": a client that lost an id must not mark everything.
  if (typeof id !== "number" || !Number.isSafeInteger(id)) throw new HttpError(422, "id must be an integer");
  return id;
}

/** The spec shows no response body; this answers how many notifications changed (assumed). */
async function markNotifications(ctx: ApiContext): Promise<void> {
  const id = await readMarkTarget(ctx);
  const targets = id === undefined ? ownNotifications(ctx) : [findOwn(ctx, id)];
  sendJson(ctx.res, 200, { marked: markRead(ctx.store, targets) });
}

export const notificationsRoutes: readonly Route[] = [
  { pattern: /^\/notifications$/, methods: { GET: listNotifications } },
  { pattern: /^\/notifications\/mark$/, methods: { POST: markNotifications } },
  { pattern: /^\/notifications\/([^/]+)$/, methods: { GET: getNotification } },
];
