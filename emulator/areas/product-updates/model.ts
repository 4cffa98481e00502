import { defineTable, type Row } from "../../store";

/** Service-wide news (spec 4.9): the same list for every account, so rows belong to SERVICE_WIDE. */
export interface ProductUpdateRow extends Row {
  item: Record<string, unknown>;
}

export const PRODUCT_UPDATES = defineTable<ProductUpdateRow>("productUpdates");
