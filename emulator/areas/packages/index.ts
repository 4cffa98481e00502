import { hear } from "../../topics";
import type { Area } from "../area";
import { CONNECTION_DELETED } from "../connections/interface";
import { packageFixtures } from "./fixtures";
import { validationLifecycle } from "./lifecycle";
import { PACKAGE_VERSIONS } from "./history";
import { invalidatePackagesUsing, PACKAGES } from "./model";
import { packagesRoutes } from "./routes";
import { PACKAGE_VALIDATIONS } from "./validations";

/** Packages (spec 2.4 and 4.2) and their validations (facts, "Packages"), which complete on their own. */
export const packagesArea = {
  name: "packages",
  tables: [PACKAGES, PACKAGE_VERSIONS, PACKAGE_VALIDATIONS],
  routes: packagesRoutes,
  accountFixtures: packageFixtures,
  lifecycle: validationLifecycle,
  listeners: [hear(CONNECTION_DELETED, (store, { connection, at }) => invalidatePackagesUsing(store, connection, at))],
  counters: { packages_count: (store, accountId) => store.list(PACKAGES, accountId).filter((pkg) => pkg.status === "active").length },
} satisfies Area;
