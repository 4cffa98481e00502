import type { Area } from "../area";
import { connectionFixtures } from "./fixtures";
import { CONNECTIONS } from "./model";
import { connectionsRoutes } from "./routes";

/** Connections of each type (facts, "Connections") and the listings of what they reach (spec 4.6 to 4.8). */
export const connectionsArea = {
  name: "connections",
  tables: [CONNECTIONS],
  routes: connectionsRoutes,
  accountFixtures: connectionFixtures,
  counters: { connections_count: (store, accountId) => store.list(CONNECTIONS, accountId).length },
} satisfies Area;
