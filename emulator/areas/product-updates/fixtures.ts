import { z } from "zod";
import { jsonObject } from "../../fixtures/account";
import { SERVICE_WIDE, type Store } from "../../store";
import { serviceFixtures } from "../area";
import { PRODUCT_UPDATES } from "./model";

/** `productUpdates` beside `accounts`: items of any shape (spec 2.9), served as given. */

function seedProductUpdates(store: Store, items: Record<string, unknown>[]): void {
  for (const item of items) store.insert(PRODUCT_UPDATES, { accountId: SERVICE_WIDE, item });
}

export const productUpdateFixtures = serviceFixtures({
  field: "productUpdates",
  schema: z.array(jsonObject).default([]),
  seed: seedProductUpdates,
});
