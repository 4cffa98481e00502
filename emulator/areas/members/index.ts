import type { Area } from "../area";
import { memberFixtures } from "./fixtures";
import { MEMBERSHIPS } from "./model";
import { membersRoutes } from "./routes";

/**
 * Members (facts, "Members"): who belongs to which account, with which role. Authentication
 * (`auth.ts`) rests on memberships, which come from the fixtures' `accounts[].users` and from
 * invitations. Its choices where the facts are silent are listed in the README, "Members, users
 * and accounts".
 */
export const membersArea = {
  name: "members",
  tables: [MEMBERSHIPS],
  routes: membersRoutes,
  accountRecord: memberFixtures,
} satisfies Area;
