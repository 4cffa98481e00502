import type { Area } from "../area";
import { notificationFixtures } from "./fixtures";
import { NOTIFICATIONS } from "./model";
import { notificationsRoutes } from "./routes";

/** Notifications (spec 4.10): each user's own, read and marked as read. */
export const notificationsArea = {
  name: "notifications",
  tables: [NOTIFICATIONS],
  routes: notificationsRoutes,
  accountFixtures: notificationFixtures,
} satisfies Area;
