import { hear } from "../../topics";
import type { Area } from "../area";
import { clusterFixtures } from "./fixtures";
import { clusterLifecycle } from "./lifecycle";
import { CLUSTER_STATUS_CHANGED, CLUSTERS } from "./model";
import { clustersRoutes } from "./routes";
import { notifyClusterWatchers } from "./watchers";

/** Clusters (facts, "Clusters"): what jobs run on; they are created, scaled and terminated over time. */
export const clustersArea = {
  name: "clusters",
  tables: [CLUSTERS],
  routes: clustersRoutes,
  accountFixtures: clusterFixtures,
  lifecycle: clusterLifecycle,
  listeners: [hear(CLUSTER_STATUS_CHANGED, notifyClusterWatchers)],
} satisfies Area;
