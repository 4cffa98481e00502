import { hear } from "../../topics";
import type { Area } from "../area";
import { CONNECTION_DELETED } from "../connections/interface";
import { deliveryFixtures } from "./fixtures";
import { deliveryLifecycle } from "./lifecycle";
import { DELIVERIES, disableDeliveriesUsing } from "./model";
import { deliveriesRoutes } from "./routes";

/** Deliveries (facts, "Deliveries"): a source connection delivered into a destination every interval, through a pipeline they make. */
export const deliveriesArea = {
  name: "deliveries",
  tables: [DELIVERIES],
  routes: deliveriesRoutes,
  accountFixtures: deliveryFixtures,
  lifecycle: deliveryLifecycle,
  counters: { deliveries_count: (store, accountId) => store.list(DELIVERIES, accountId).length },
  listeners: [hear(CONNECTION_DELETED, (store, { connection, at }) => disableDeliveriesUsing(store, connection, at))],
} satisfies Area;
