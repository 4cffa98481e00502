import type { Area } from "../area";
import { connectionFixtures } from "./fixtures";
import { connectionsRoutes } from "./routes";

/** Connections and the listings of what they reach (spec 4.6 to 4.8); they come from fixtures. */
export const connectionsArea = {
  name: "connections",
  routes: connectionsRoutes,
  accountFixtures: connectionFixtures,
} satisfies Area;
