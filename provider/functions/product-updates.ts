/** The service's recent product news (spec 4.9), the same for every account. */
import { listProductUpdatesPage, productUpdateRecord } from "../api/product-updates";
import { collectAllPages } from "../client/pagination";
import { programRequest } from "../context";

/** An item as the service returns it: the spec does not show its fields. */
export type ProductUpdate = Record<string, unknown>;

/** Every product update, all pages. */
export async function listProductUpdates(): Promise<ProductUpdate[]> {
  return collectAllPages(programRequest(), (request) => listProductUpdatesPage(request), productUpdateRecord, { what: "product updates" });
}
