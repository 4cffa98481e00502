import type { Area } from "../area";
import { clusterFixtures } from "./fixtures";
import { clusterLifecycle } from "./lifecycle";
import { clustersRoutes } from "./routes";
import { notifyClusterWatchers } from "./watchers";

/** Clusters (facts, "Clusters"): what jobs run on; they are created, scaled and terminated over time. */
export const clustersArea = {
  name: "clusters",
  routes: clustersRoutes,
  accountFixtures: clusterFixtures,
  lifecycle: clusterLifecycle,
  onStatusChange: notifyClusterWatchers,
} satisfies Area;
