import { z } from "zod";
import { parseBody, readOptionalObjectBody } from "../../body";
import { integer } from "../../fields";
import { notFound, sendJson } from "../../http";
import { sendPage } from "../../pagination";
import { readBooleanFilter } from "../../query";
import { parseId, type ApiContext, type Route } from "../../routing";
import { findNotificationOfUser, markRead, notificationJson, notificationsOfUser, type NotificationRow } from "./model";

/**
 * The caller's own notifications: marking them read is in the spec (4.10); listing and
 * getting them are assumed. Other users of the account neither see nor mark them.
 */

// null is refused rather than read as "all": a client that lost an id must not mark everything.
const markBodySchema = z.strictObject({ id: integer().optional() });

function ownNotifications(ctx: ApiContext): NotificationRow[] {
  return notificationsOfUser(ctx.store, ctx.caller.account.id, ctx.caller.user.id);
}

function listNotifications(ctx: ApiContext): void {
  const read = readBooleanFilter(ctx.query, "read");
  const notifications = ownNotifications(ctx).filter((notification) => read === undefined || notification.read === read);
  sendPage(ctx, notifications, (notification) => notificationJson(notification, ctx.baseUrl));
}

function findOwn(ctx: ApiContext, id: number): NotificationRow {
  const notification = findNotificationOfUser(ctx.store, ctx.caller.account.id, ctx.caller.user.id, id);
  if (notification === undefined) throw notFound();
  return notification;
}

function getNotification(ctx: ApiContext): void {
  sendJson(ctx.res, 200, notificationJson(findOwn(ctx, parseId(ctx.params[0])), ctx.baseUrl));
}

/** The notification to mark, or undefined for all of them: no body at all, or no `id`. */
async function readMarkTarget(ctx: ApiContext): Promise<number | undefined> {
  const body = await readOptionalObjectBody(ctx.req);
  return body === undefined ? undefined : parseBody(markBodySchema, body).id;
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
