import { onStatusChange } from "../../status-events";
import type { Area } from "../area";
import { jobLifecycle } from "./lifecycle";
import { jobsRoutes } from "./routes";
import { notifyJobWatchers } from "./watchers";

// Watchers hear of the changes the job announces, once per process.
onStatusChange(notifyJobWatchers);

/** Jobs (spec 2.1 to 4.1, facts "Jobs"): runs of a package on a cluster, made only through the API. */
export const jobsArea = {
  name: "jobs",
  routes: jobsRoutes,
  lifecycle: jobLifecycle,
} satisfies Area;
