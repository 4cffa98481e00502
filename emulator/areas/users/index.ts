import type { Area } from "../area";
import { userRoute } from "./routes";

/**
 * Users (facts, "Users"): the person an API key names, read and changed at the host root. Users
 * themselves are the emulator's core (`store.ts`, `auth.ts`): they come from the fixtures'
 * `accounts[].users` and from member invitations. The choices where the facts are silent are
 * listed in the README, "Members, users and accounts".
 */
export const usersArea = {
  name: "users",
  routes: [],
  rootRoutes: [userRoute],
} satisfies Area;
