import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator";
import { listProductUpdatesPage, productUpdateRecord } from "../../../provider/api/product-updates";
import type { RequestFn } from "../../../provider/client/http";
import { ACCOUNT, call, DANA_KEY, fetchAsIs, nextLink, OTHER_ACCOUNT, OTHER_KEY, readJson } from "../helpers";
import { PRODUCT_UPDATES, startedForEachTest } from "./helpers-billing-and-news";

/** Product updates: service-wide news, the same for every account, read a page at a time. */

let emulator: RunningEmulator;
let dana: RequestFn;

startedForEachTest((started) => ({ emulator, dana } = started));

/** Every item of a collection, walking `rel="next"` from `firstUrl`. */
async function walk(firstUrl: string, key = DANA_KEY): Promise<{ items: unknown[]; pages: number }> {
  const items: unknown[] = [];
  let url: string | undefined = firstUrl;
  let pages = 0;
  while (url !== undefined) {
    const response = await fetchAsIs(url, key);
    expect(response.status).toBe(200);
    items.push(...((await readJson(response)) as unknown[]));
    pages++;
    url = nextLink(response);
  }
  return { items, pages };
}

describe("product updates", () => {
  it("GET /product_updates answers the service-wide items, 20 by default", async () => {
    const response = await call(emulator, "/product_updates");
    expect(response.status).toBe(200);
    const items = (await readJson(response)) as unknown[];
    expect(items.map((item) => productUpdateRecord.parse(item))).toEqual(PRODUCT_UPDATES.slice(0, 20));
    expect(nextLink(response)).toBe(`${emulator.url}/${ACCOUNT}/api/product_updates?offset=20&limit=20`);
  });

  it("walks every item through rel=next, the same for every account", async () => {
    const acme = await walk(`${emulator.url}/${ACCOUNT}/api/product_updates?limit=10`);
    expect(acme).toEqual({ items: PRODUCT_UPDATES, pages: 3 });
    const globex = await walk(`${emulator.url}/${OTHER_ACCOUNT}/api/product_updates?limit=10`, OTHER_KEY);
    expect(globex).toEqual(acme);
  });

  it("is read a page at a time by the provider", async () => {
    const page = await listProductUpdatesPage(dana, { offset: 20, limit: 10 });
    expect(page.items).toEqual(PRODUCT_UPDATES.slice(20));
    expect(page.link).toBe(`<${emulator.url}/${ACCOUNT}/api/product_updates?offset=10&limit=10>; rel="prev"`);
  });
});
