import { hear } from "../../topics";
import type { Area } from "../area";
import { jobLifecycle } from "./lifecycle";
import { JOB_OUTPUTS, JOB_STATUS_CHANGED, JOBS } from "./model";
import { jobsRoutes } from "./routes";
import { notifyJobWatchers } from "./watchers";

/** Jobs (spec 2.1 to 4.1, facts "Jobs"): runs of a package on a cluster, made only through the API. */
export const jobsArea = {
  name: "jobs",
  tables: [JOBS, JOB_OUTPUTS],
  routes: jobsRoutes,
  lifecycle: jobLifecycle,
  counters: {
    jobs_count: (store, accountId) => store.list(JOBS, accountId).length,
    running_jobs_count: (store, accountId) => store.list(JOBS, accountId).filter((job) => job.status === "running").length,
  },
  listeners: [hear(JOB_STATUS_CHANGED, notifyJobWatchers)],
} satisfies Area;
