import { hear } from "../../topics";
import type { Area } from "../area";
import { CONNECTION_DELETED } from "../connections/interface";
import { connectionGroupFixtures } from "./fixtures";
import { CONNECTION_GROUPS, detachDeletedConnection } from "./model";
import { connectionGroupsRoutes } from "./routes";

/** Connection groups (spec 2.7 and 4.5): named sets of database and cloud-storage connections. */
export const connectionGroupsArea = {
  name: "connection groups",
  tables: [CONNECTION_GROUPS],
  routes: connectionGroupsRoutes,
  accountFixtures: connectionGroupFixtures,
  listeners: [hear(CONNECTION_DELETED, (store, { connection, at }) => detachDeletedConnection(store, connection, at))],
} satisfies Area;
