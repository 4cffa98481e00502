import type { Route } from "../routing";

export const packagesRoutes: readonly Route[] = [];
