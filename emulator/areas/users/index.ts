import type { Area } from "../area";
import { userFixtures } from "./fixtures";
import { USERS } from "./model";
import { userRoute } from "./routes";

/**
 * Users (facts, "Users"): the person an API key names, read and changed at the host root. They
 * come from the fixtures' `accounts[].users` and from member invitations; authentication
 * (`auth.ts`) finds them by key. The choices where the facts are silent are listed in the
 * README, "Members, users and accounts".
 */
export const usersArea = {
  name: "users",
  tables: [USERS],
  routes: [],
  rootRoutes: [userRoute],
  accountRecord: userFixtures,
} satisfies Area;
