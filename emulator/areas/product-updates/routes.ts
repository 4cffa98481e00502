import { sendPage } from "../../pagination";
import type { ApiContext, Route } from "../../routing";
import { SERVICE_WIDE } from "../../store";
import { PRODUCT_UPDATES } from "./model";

/** Service-wide news (spec 4.9): every account sees the same items, as the fixtures give them. */

function listProductUpdates(ctx: ApiContext): void {
  sendPage(
    ctx,
    ctx.store.list(PRODUCT_UPDATES, SERVICE_WIDE).map((row) => row.item),
  );
}

export const productUpdatesRoutes: readonly Route[] = [{ pattern: /^\/product_updates$/, methods: { GET: listProductUpdates } }];
