import { defineTable, type Row, type Store } from "../../store";

/**
 * Billing history (spec 2.6). Invoice ids are strings chosen by the billing system, so the row
 * keeps its own numeric id for the table and the invoice's id as `invoiceId`.
 */
export interface InvoiceRow extends Row {
  invoiceId: string;
  /** Calendar date, YYYY-MM-DD. */
  date: string;
  amount: number;
  currency: string;
  status: string;
  /** Where the PDF lives when the fixture says so; otherwise derived from the account. */
  pdfUrl?: string;
}

export const INVOICES = defineTable<InvoiceRow>("invoices");

/** Newest first: by date, then the later-recorded invoice of the same day. */
export function invoicesOfAccount(store: Store, accountId: number): InvoiceRow[] {
  return store.list(INVOICES, accountId).sort((a, b) => b.date.localeCompare(a.date) || b.id - a.id);
}

export function findInvoice(store: Store, accountId: number, invoiceId: string): InvoiceRow | undefined {
  return store.list(INVOICES, accountId).find((invoice) => invoice.invoiceId === invoiceId);
}

/** The service's JSON for an invoice (spec 2.6). The default PDF address is outside the API. */
export function invoiceJson(invoice: InvoiceRow, origin: string, accountUid: string): Record<string, unknown> {
  const pdfUrl = invoice.pdfUrl ?? `${origin}/${encodeURIComponent(accountUid)}/invoices/${encodeURIComponent(invoice.invoiceId)}.pdf`;
  return {
    id: invoice.invoiceId,
    date: invoice.date,
    amount: invoice.amount,
    currency: invoice.currency,
    status: invoice.status,
    pdf_url: pdfUrl,
  };
}
