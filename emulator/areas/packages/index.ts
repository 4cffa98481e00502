import type { Area } from "../area";
import { packageFixtures } from "./fixtures";
import { validationLifecycle } from "./lifecycle";
import { invalidatePackagesUsing, PACKAGES } from "./model";
import { packagesRoutes } from "./routes";

/** Packages (spec 2.4 and 4.2) and their validations (facts, "Packages"), which complete on their own. */
export const packagesArea = {
  name: "packages",
  routes: packagesRoutes,
  accountFixtures: packageFixtures,
  lifecycle: validationLifecycle,
  onConnectionDeleted: invalidatePackagesUsing,
  counters: { packages_count: (store, accountId) => store.list(PACKAGES, accountId).filter((pkg) => pkg.status === "active").length },
} satisfies Area;
