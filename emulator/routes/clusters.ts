import type { Route } from "../routing";

export const clustersRoutes: readonly Route[] = [];
