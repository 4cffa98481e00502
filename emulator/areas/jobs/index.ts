import type { Area } from "../area";
import { jobLifecycle } from "./lifecycle";
import { jobsRoutes } from "./routes";

/** Jobs (spec 2.1 to 4.1, facts "Jobs"): runs of a package on a cluster, made only through the API. */
export const jobsArea = {
  name: "jobs",
  routes: jobsRoutes,
  lifecycle: jobLifecycle,
} satisfies Area;
