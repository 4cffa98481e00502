import type { Area } from "../area";
import { membersRoutes } from "./routes";

/**
 * Members (facts, "Members"): who belongs to which account, with which role. Memberships are
 * the emulator's core (`memberships.ts`, `auth.ts`) and come from the fixtures'
 * `accounts[].users`; this area serves them. Its choices where the facts are silent are listed
 * in the README, "Members, users and accounts".
 */
export const membersArea = {
  name: "members",
  routes: membersRoutes,
} satisfies Area;
