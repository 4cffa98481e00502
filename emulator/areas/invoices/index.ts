import type { Area } from "../area";
import { invoiceFixtures } from "./fixtures";
import { INVOICES } from "./model";
import { invoicesRoutes } from "./routes";

/** Invoices (spec 2.6 and 4.4): the account's billing history, from fixtures. */
export const invoicesArea = {
  name: "invoices",
  tables: [INVOICES],
  routes: invoicesRoutes,
  accountFixtures: invoiceFixtures,
} satisfies Area;
