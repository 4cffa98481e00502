import type { Route } from "../routing";

export const notificationsRoutes: readonly Route[] = [];
