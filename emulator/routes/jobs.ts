import type { Route } from "../routing";

export const jobsRoutes: readonly Route[] = [];
