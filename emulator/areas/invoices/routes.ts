import { notFound, sendJson } from "../../http";
import { sendPage } from "../../pagination";
import type { ApiContext, Route } from "../../routing";
import { findInvoice, invoiceJson, invoicesOfAccount } from "./model";

/** The account's invoices: get is in the spec (4.4); the list is assumed, newest first. */

function listInvoices(ctx: ApiContext): void {
  const { account } = ctx.caller;
  sendPage(ctx, invoicesOfAccount(ctx.store, account.id), (invoice) => invoiceJson(invoice, ctx.origin, account.uid));
}

/** Invoice ids are strings; a segment that does not decode cannot name one. */
function decodeInvoiceId(segment: string | undefined): string {
  try {
    return decodeURIComponent(segment ?? "");
  } catch {
    throw notFound();
  }
}

function getInvoice(ctx: ApiContext): void {
  const { account } = ctx.caller;
  const invoice = findInvoice(ctx.store, account.id, decodeInvoiceId(ctx.params[0]));
  if (invoice === undefined) throw notFound();
  sendJson(ctx.res, 200, invoiceJson(invoice, ctx.origin, account.uid));
}

export const invoicesRoutes: readonly Route[] = [
  { pattern: /^\/invoices$/, methods: { GET: listInvoices } },
  { pattern: /^\/invoices\/([^/]+)$/, methods: { GET: getInvoice } },
];
