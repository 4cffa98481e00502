import type { Area } from "../area";
import { accountFixtures } from "./fixtures";
import { ACCOUNTS } from "./model";
import { accountsRoutes } from "./routes";

/**
 * Accounts (facts, "Accounts"): listed, created, changed, renamed and deleted at the host root.
 * Every `{base_url}` names one, and the fixtures' accounts are seeded before any other record.
 * The choices where the facts are silent are listed in the README, "Members, users and accounts".
 */
export const accountsArea = {
  name: "accounts",
  tables: [ACCOUNTS],
  routes: [],
  rootRoutes: accountsRoutes,
  accountRecord: accountFixtures,
} satisfies Area;
