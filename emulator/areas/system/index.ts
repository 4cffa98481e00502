import type { Area } from "../area";
import { systemRootRoutes, systemRoutes } from "./routes";

/** System information (facts, "System information" and "Variables"): catalogues and the credit allowance. */
export const systemArea = {
  name: "system information",
  routes: systemRoutes,
  rootRoutes: systemRootRoutes,
} satisfies Area;
