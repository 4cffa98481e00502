import { onStatusChange } from "../../status-events";
import type { Area } from "../area";
import { hookEventsRoute } from "./catalogue";
import { hookFixtures } from "./fixtures";
import { notifyHooks } from "./notify";
import { hooksRoutes } from "./routes";

// Jobs and clusters announce their changes without knowing who listens; hooks listen from here,
// once per process, whenever the area is part of the service.
onStatusChange(notifyHooks);

/** Hooks (facts, "Hooks"): notifications of job and cluster events, delivered for real to web hooks. */
export const hooksArea = {
  name: "hooks",
  routes: hooksRoutes,
  rootRoutes: [hookEventsRoute],
  accountFixtures: hookFixtures,
} satisfies Area;
