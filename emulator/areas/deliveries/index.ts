import type { Area } from "../area";
import { deliveryFixtures } from "./fixtures";
import { deliveryLifecycle } from "./lifecycle";
import { deliveriesRoutes } from "./routes";

/** Deliveries (facts, "Deliveries"): a source connection delivered into a destination every interval, through a pipeline they make. */
export const deliveriesArea = {
  name: "deliveries",
  routes: deliveriesRoutes,
  accountFixtures: deliveryFixtures,
  lifecycle: deliveryLifecycle,
} satisfies Area;
