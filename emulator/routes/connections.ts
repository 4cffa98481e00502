import type { Route } from "../routing";

export const connectionsRoutes: readonly Route[] = [];
