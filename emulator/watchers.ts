import { notifyUser } from "./areas/notifications/interface";
import { userById } from "./areas/users/interface";
import { isoTime } from "./clock";
import { sendJson, sendNoContent } from "./http";
import { findOwnRow, type ApiContext, type Route } from "./routing";
import type { Row, Store, Table } from "./store";

/**
 * Watchers (facts, "Notifications and watchers"): users of the account who are told, through
 * their notifications, when a schedule, cluster or job they watch changes. The same three paths
 * serve each kind, `{base_url}/<kind>s/:id/watchers`: POST watches (200 with `{created_at,
 * <kind>_url}`, watching twice keeps the first time), GET lists `[{id, display_name}]`, DELETE
 * stops watching (204, also when the caller was not watching). Whoever creates the record
 * watches it from the start. A record keeps its own watchers, so they go when it goes.
 */

export interface Watcher {
  userId: number;
  since: string;
}

/** A record that can be watched; rows saved before its kind had watchers have none. */
export interface WatchedRow extends Row {
  watchers?: Watcher[];
}

/** What the shared paths need to know of one kind of watched record. */
export interface WatchedKind<T extends WatchedRow> {
  /** As the path and the response name it: `schedule` gives `/schedules/:id/watchers` and `schedule_url`. */
  kind: "schedule" | "cluster" | "job";
  table: Table<T>;
  url(baseUrl: string, id: number): string;
}

/** The creator watches a new record by default (facts). */
export function creatorWatching(userId: number, atMs: number): Watcher[] {
  return [{ userId, since: isoTime(atMs) }];
}

function watchersOf(row: WatchedRow): Watcher[] {
  return row.watchers ?? [];
}

/** A user's name as watcher lists show it: the one place that looks users up. */
export function userDisplayName(ctx: ApiContext, userId: number): string {
  return userById(ctx.store, userId)?.name ?? "";
}

function watch<T extends WatchedRow>(spec: WatchedKind<T>, ctx: ApiContext): void {
  const row = findOwnRow(ctx, spec.table);
  const userId = ctx.caller.user.id;
  let watcher = watchersOf(row).find((w) => w.userId === userId);
  if (watcher === undefined) {
    watcher = { userId, since: isoTime(ctx.store.clock.now()) };
    ctx.store.update(spec.table, row, { watchers: [...watchersOf(row), watcher] } as Partial<T>);
  }
  sendJson(ctx.res, 200, { created_at: watcher.since, [`${spec.kind}_url`]: spec.url(ctx.baseUrl, row.id) });
}

function listWatchers<T extends WatchedRow>(spec: WatchedKind<T>, ctx: ApiContext): void {
  const row = findOwnRow(ctx, spec.table);
  sendJson(
    ctx.res,
    200,
    watchersOf(row).map((w) => ({ id: w.userId, display_name: userDisplayName(ctx, w.userId) })),
  );
}

function unwatch<T extends WatchedRow>(spec: WatchedKind<T>, ctx: ApiContext): void {
  const row = findOwnRow(ctx, spec.table);
  const userId = ctx.caller.user.id;
  if (watchersOf(row).some((w) => w.userId === userId)) {
    ctx.store.update(spec.table, row, { watchers: watchersOf(row).filter((w) => w.userId !== userId) } as Partial<T>);
  }
  sendNoContent(ctx.res);
}

/** `/<kind>s/:id/watchers`; it must come before the kind's `/<kind>s/:id` route when that would match it. */
export function watcherRoute<T extends WatchedRow>(spec: WatchedKind<T>): Route {
  return {
    pattern: new RegExp(`^/${spec.kind}s/([^/]+)/watchers$`),
    methods: {
      GET: (ctx) => listWatchers(spec, ctx),
      POST: (ctx) => watch(spec, ctx),
      DELETE: (ctx) => unwatch(spec, ctx),
    },
  };
}

export interface WatcherMessage {
  title: string;
  body: string;
}

/** Each watcher of the record gets the message as an unread notification. */
export function notifyWatchers(store: Store, row: WatchedRow, message: WatcherMessage, atMs: number): void {
  for (const { userId } of watchersOf(row)) {
    notifyUser(store, { accountId: row.accountId, userId, ...message }, atMs);
  }
}
