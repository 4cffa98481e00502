import { sendJson } from "../http";
import { PRODUCT_UPDATES, SERVICE_WIDE } from "../model/product-updates";
import { paginate } from "../pagination";
import type { ApiContext, Route } from "../routing";

/** Service-wide news (spec 4.9): every account sees the same items, as the fixtures give them. */

function listProductUpdates(ctx: ApiContext): void {
  const items = ctx.store.list(PRODUCT_UPDATES, SERVICE_WIDE).map((row) => row.item);
  const page = paginate(items, ctx.query, { origin: ctx.origin, pathname: ctx.pathname });
  sendJson(ctx.res, 200, page.items, page.headers);
}

export const productUpdatesRoutes: readonly Route[] = [{ pattern: /^\/product_updates$/, methods: { GET: listProductUpdates } }];
