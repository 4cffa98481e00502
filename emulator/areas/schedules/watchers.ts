import type { Store } from "../../store";
import { notifyWatchers, watcherRoute } from "../../watchers";
import { scheduleUrl } from "./json";
import { SCHEDULES, type ScheduleRow } from "./model";

/** Watchers of a schedule (`emulator/watchers.ts`) are told when it is enabled or disabled (facts). */

export const scheduleWatcherRoute = watcherRoute({ kind: "schedule", table: SCHEDULES, url: scheduleUrl });

export function notifyStatusWatchers(store: Store, schedule: ScheduleRow, at: number): void {
  const message = {
    title: `Schedule '${schedule.name}' ${schedule.status}`,
    body: `The schedule '${schedule.name}' was ${schedule.status}.`,
  };
  notifyWatchers(store, schedule, message, at);
}
