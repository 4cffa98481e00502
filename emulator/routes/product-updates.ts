import type { Route } from "../routing";

export const productUpdatesRoutes: readonly Route[] = [];
