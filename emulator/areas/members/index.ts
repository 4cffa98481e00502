import type { Area } from "../area";
import { accountsRoutes } from "./accounts";
import { membersRoutes } from "./routes";
import { userRoute } from "./user";

/**
 * Members, users and accounts (facts, "Members", "Users", "Accounts"): who belongs to which
 * account, with which role. Users, memberships and accounts themselves are the emulator's core
 * (`memberships.ts`, `auth.ts`) and come from the fixtures' `accounts[].users`; this area serves
 * them. Its choices where the facts are silent are listed in the README, "Members, users and
 * accounts".
 */
export const membersArea = {
  name: "members",
  routes: membersRoutes,
  rootRoutes: [userRoute, ...accountsRoutes],
} satisfies Area;
