import { earliestOf, type AreaLifecycle, type Due, type LifecycleState } from "../../lifecycle/state";
import { DELIVERIES, type DeliveryRow } from "./model";
import { enableDelivery, runDelivery } from "./runs";

/**
 * Deliveries: idle → enabled once the service has set one up ("a few minutes", facts), then a
 * run every interval while enabled. A disabled delivery does nothing more.
 */

/** Simulated seconds of each timed step (`--speed N` divides them). */
export const DELIVERY_SECONDS = {
  /** idle → enabled: the set-up, which the facts put at "a few minutes". */
  setup: 120,
} as const;

function nextDeliveryTransition(state: LifecycleState, delivery: DeliveryRow): Due | undefined {
  const { store } = state;
  if (delivery.status === "idle") {
    const apply = (at: number) => {
      enableDelivery(store, delivery, at);
      state.rowsAdded();
    };
    return { at: Date.parse(delivery.statusSince) + state.duration(DELIVERY_SECONDS.setup), id: delivery.id, apply };
  }
  if (delivery.status !== "enabled" || delivery.nextRunAt === null) return undefined;
  const apply = (at: number) => {
    runDelivery(store, delivery, at);
    state.rowsAdded();
  };
  return { at: Date.parse(delivery.nextRunAt), id: delivery.id, apply };
}

/** After clusters, jobs and schedules at one instant, so a run sees the clusters as they are then. */
export const deliveryLifecycle: AreaLifecycle = {
  rank: 4,
  earliest: (state) => earliestOf(state.rows(DELIVERIES), (delivery) => nextDeliveryTransition(state, delivery)),
};
