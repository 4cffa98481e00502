import type { Route } from "../routing";

export const connectionGroupsRoutes: readonly Route[] = [];
