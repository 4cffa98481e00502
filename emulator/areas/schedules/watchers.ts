import { isoTime } from "../../clock";
import { sendJson, sendNoContent } from "../../http";
import { findOwnRow, type ApiContext, type Route } from "../../routing";
import type { Store } from "../../store";
import { NOTIFICATIONS } from "../notifications/model";
import { scheduleUrl } from "./json";
import { SCHEDULES, type ScheduleRow } from "./model";

/**
 * Watchers of a schedule (facts, "Notifications and watchers"): users of the account told when
 * the schedule is enabled or disabled, through their notifications. Its creator watches it from
 * the start; watching twice keeps the first time, and stopping to watch is always 204.
 */

function watch(ctx: ApiContext): void {
  const schedule = findOwnRow(ctx, SCHEDULES);
  const userId = ctx.caller.user.id;
  let watcher = schedule.watchers.find((w) => w.userId === userId);
  if (watcher === undefined) {
    watcher = { userId, since: isoTime(ctx.store.clock.now()) };
    ctx.store.update(SCHEDULES, schedule, { watchers: [...schedule.watchers, watcher] });
  }
  sendJson(ctx.res, 200, { created_at: watcher.since, schedule_url: scheduleUrl(ctx.baseUrl, schedule.id) });
}

function listWatchers(ctx: ApiContext): void {
  const schedule = findOwnRow(ctx, SCHEDULES);
  sendJson(
    ctx.res,
    200,
    schedule.watchers.map((w) => ({ id: w.userId, display_name: ctx.store.userById(w.userId)?.name ?? "" })),
  );
}

function unwatch(ctx: ApiContext): void {
  const schedule = findOwnRow(ctx, SCHEDULES);
  const userId = ctx.caller.user.id;
  if (schedule.watchers.some((w) => w.userId === userId)) {
    ctx.store.update(SCHEDULES, schedule, { watchers: schedule.watchers.filter((w) => w.userId !== userId) });
  }
  sendNoContent(ctx.res);
}

/** Each watcher learns that the schedule was enabled or disabled. */
export function notifyWatchers(store: Store, schedule: ScheduleRow, at: number): void {
  for (const { userId } of schedule.watchers) {
    store.insert(NOTIFICATIONS, {
      accountId: schedule.accountId,
      userId,
      title: `Schedule '${schedule.name}' ${schedule.status}`,
      body: `The schedule '${schedule.name}' was ${schedule.status}.`,
      read: false,
      createdAt: isoTime(at),
    });
  }
}

export const watcherRoutes: readonly Route[] = [
  { pattern: /^\/schedules\/([^/]+)\/watchers$/, methods: { GET: listWatchers, POST: watch, DELETE: unwatch } },
];
