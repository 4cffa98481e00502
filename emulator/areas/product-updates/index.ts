import type { Area } from "../area";
import { productUpdateFixtures } from "./fixtures";
import { PRODUCT_UPDATES } from "./model";
import { productUpdatesRoutes } from "./routes";

/** Product updates (spec 4.9): news of the service, the same for every account. */
export const productUpdatesArea = {
  name: "product updates",
  tables: [PRODUCT_UPDATES],
  routes: productUpdatesRoutes,
  serviceFixtures: productUpdateFixtures,
} satisfies Area;
