import type { Route } from "../routing";
import { clustersRoutes } from "./clusters";
import { connectionGroupsRoutes } from "./connection-groups";
import { connectionsRoutes } from "./connections";
import { invoicesRoutes } from "./invoices";
import { jobsRoutes } from "./jobs";
import { notificationsRoutes } from "./notifications";
import { packagesRoutes } from "./packages";
import { productUpdatesRoutes } from "./product-updates";
import { publicKeyRoutes } from "./public-keys";

/** Every API route, below `{base_url}`. Within an area, fixed segments precede `{id}` patterns. */
export const API_ROUTES: readonly Route[] = [
  ...publicKeyRoutes,
  ...connectionGroupsRoutes,
  ...connectionsRoutes,
  ...clustersRoutes,
  ...jobsRoutes,
  ...packagesRoutes,
  ...invoicesRoutes,
  ...productUpdatesRoutes,
  ...notificationsRoutes,
];
