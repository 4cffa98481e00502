import type { Area } from "../area";
import { connectionGroupFixtures } from "./fixtures";
import { detachDeletedConnection } from "./model";
import { connectionGroupsRoutes } from "./routes";

/** Connection groups (spec 2.7 and 4.5): named sets of database and cloud-storage connections. */
export const connectionGroupsArea = {
  name: "connection groups",
  routes: connectionGroupsRoutes,
  accountFixtures: connectionGroupFixtures,
  onConnectionDeleted: detachDeletedConnection,
} satisfies Area;
