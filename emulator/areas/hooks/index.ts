import type { Area } from "../area";
import { hookEventsRoute } from "./catalogue";
import { hookFixtures } from "./fixtures";
import { HOOKS } from "./model";
import { notifyHooks } from "./notify";
import { hooksRoutes } from "./routes";

/** Hooks (facts, "Hooks"): notifications of job and cluster events, delivered for real to web hooks. */
export const hooksArea = {
  name: "hooks",
  routes: hooksRoutes,
  rootRoutes: [hookEventsRoute],
  accountFixtures: hookFixtures,
  counters: { hooks_count: (store, accountId) => store.list(HOOKS, accountId).length },
  onStatusChange: notifyHooks,
} satisfies Area;
