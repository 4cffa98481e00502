import type { Area } from "../area";
import { accountsRoutes } from "./routes";

/**
 * Accounts (facts, "Accounts"): listed, created, changed, renamed and deleted at the host root.
 * Accounts themselves are the emulator's core (`store.ts`): every `{base_url}` names one, and
 * the fixtures' accounts are seeded before any area. The choices where the facts are silent are
 * listed in the README, "Members, users and accounts".
 */
export const accountsArea = {
  name: "accounts",
  routes: [],
  rootRoutes: accountsRoutes,
} satisfies Area;
