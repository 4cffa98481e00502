import type { Area } from "./area";
import { accountsArea } from "./accounts";
import { clustersArea } from "./clusters";
import { connectionGroupsArea } from "./connection-groups";
import { connectionsArea } from "./connections";
import { deliveriesArea } from "./deliveries";
import { hooksArea } from "./hooks";
import { invoicesArea } from "./invoices";
import { jobsArea } from "./jobs";
import { membersArea } from "./members";
import { notificationsArea } from "./notifications";
import { packagesArea } from "./packages";
import { productUpdatesArea } from "./product-updates";
import { publicKeysArea } from "./public-keys";
import { schedulesArea } from "./schedules";
import { systemArea } from "./system";
import { usersArea } from "./users";

export type { Area } from "./area";

/**
 * Every area the emulator serves, one line each. The list drives the route table, the fixtures'
 * schema, the seeding of a new store and the lifecycle loop. Its order is the seeding order:
 * an area's fixtures may refer to rows of the areas above it (every record to its account and
 * users, groups and deliveries to connections).
 */
const LIST = [
  accountsArea,
  usersArea,
  membersArea,
  publicKeysArea,
  packagesArea,
  clustersArea,
  connectionsArea,
  connectionGroupsArea,
  jobsArea,
  schedulesArea,
  deliveriesArea,
  invoicesArea,
  notificationsArea,
  productUpdatesArea,
  hooksArea,
  systemArea,
] as const satisfies readonly Area[];

export const AREAS: readonly Area[] = LIST;

/** The same list with each area's own types, from which the fixtures' type is made. */
export type AreaList = typeof LIST;
