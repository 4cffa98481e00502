import type { Route } from "../routing";

export const invoicesRoutes: readonly Route[] = [];
