import type { Area } from "../area";
import { publicKeyFixtures } from "./fixtures";
import { PUBLIC_KEYS } from "./model";
import { publicKeyRoutes } from "./routes";

/** SSH public keys of the calling user (spec 2.5 and 4.3, facts "Public keys"). */
export const publicKeysArea = {
  name: "public keys",
  tables: [PUBLIC_KEYS],
  routes: publicKeyRoutes,
  accountFixtures: publicKeyFixtures,
} satisfies Area;
