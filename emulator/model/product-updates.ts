import { defineTable, type Row, type Store } from "../store";

/** Service-wide news (spec 4.9): the same list for every account, so rows carry account 0. */
export interface ProductUpdateRow extends Row {
  item: Record<string, unknown>;
}

export const PRODUCT_UPDATES = defineTable<ProductUpdateRow>("productUpdates");
export const SERVICE_WIDE = 0;

export function seedProductUpdates(store: Store, items: Record<string, unknown>[]): void {
  for (const item of items) store.insert(PRODUCT_UPDATES, { accountId: SERVICE_WIDE, item });
}
