/** Service-wide product news: `{base_url}/product_updates` (spec 4.9). */
import { z } from "zod";
import type { RequestFn } from "../client/http";
import { parsePage, type Page, type PageRequest } from "./records";

/** Each item is a JSON object whose fields the spec does not show (2.9), so none are required. */
export const productUpdateRecord = z.record(z.string(), z.unknown());
export type ProductUpdateRecord = z.output<typeof productUpdateRecord>;

export async function listProductUpdatesPage(request: RequestFn, page: PageRequest = {}): Promise<Page<ProductUpdateRecord>> {
  const response = await request({ method: "GET", path: "/product_updates", query: { offset: page.offset, limit: page.limit } });
  return parsePage(productUpdateRecord, response, "a list of product updates");
}
