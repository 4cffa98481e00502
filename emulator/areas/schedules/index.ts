import type { Area } from "../area";
import { scheduleFixtures } from "./fixtures";
import { scheduleLifecycle } from "./lifecycle";
import { SCHEDULES } from "./model";
import { schedulesRoutes } from "./routes";

/** Schedules (facts, "Schedules"): run packages as jobs every interval, on clusters they pick or create. */
export const schedulesArea = {
  name: "schedules",
  tables: [SCHEDULES],
  routes: schedulesRoutes,
  accountFixtures: scheduleFixtures,
  lifecycle: scheduleLifecycle,
  counters: { schedules_count: (store, accountId) => store.list(SCHEDULES, accountId).length },
} satisfies Area;
