import { hear } from "../../topics";
import type { Area } from "../area";
import { CLUSTER_STATUS_CHANGED } from "../clusters/interface";
import { JOB_STATUS_CHANGED } from "../jobs/interface";
import { hookEventsRoute } from "./catalogue";
import { hookFixtures } from "./fixtures";
import { HOOKS } from "./model";
import { notifyHooks } from "./notify";
import { hooksRoutes } from "./routes";

/** Hooks (facts, "Hooks"): notifications of job and cluster events, delivered for real to web hooks. */
export const hooksArea = {
  name: "hooks",
  tables: [HOOKS],
  routes: hooksRoutes,
  rootRoutes: [hookEventsRoute],
  accountFixtures: hookFixtures,
  counters: { hooks_count: (store, accountId) => store.list(HOOKS, accountId).length },
  listeners: [hear(JOB_STATUS_CHANGED, notifyHooks), hear(CLUSTER_STATUS_CHANGED, notifyHooks)],
} satisfies Area;
