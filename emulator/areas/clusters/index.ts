import { onStatusChange } from "../../status-events";
import type { Area } from "../area";
import { clusterFixtures } from "./fixtures";
import { clusterLifecycle } from "./lifecycle";
import { clustersRoutes } from "./routes";
import { notifyClusterWatchers } from "./watchers";

// Watchers hear of the changes the cluster announces, once per process.
onStatusChange(notifyClusterWatchers);

/** Clusters (facts, "Clusters"): what jobs run on; they are created, scaled and terminated over time. */
export const clustersArea = {
  name: "clusters",
  routes: clustersRoutes,
  accountFixtures: clusterFixtures,
  lifecycle: clusterLifecycle,
} satisfies Area;
