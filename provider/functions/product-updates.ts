/** The service's recent product news (spec 4.9), the same for every account. */
import { listProductUpdatesPage, productUpdateRecord } from "../api/product-updates";
import { collectAllPages } from "../client/pagination";
import { programFunction, type FunctionContext } from "./context";

/** An item as the service returns it: the spec does not show its fields. */
export type ProductUpdate = Record<string, unknown>;

/** Every product update, all pages. */
export const listProductUpdates = programFunction(async function listProductUpdates(ctx: FunctionContext): Promise<ProductUpdate[]> {
  return collectAllPages(ctx.request, (request) => listProductUpdatesPage(request), productUpdateRecord, { what: "product updates" });
});
