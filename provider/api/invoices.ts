/** Invoices of the account: `{base_url}/invoices/{invoice_id}` (spec 2.6 and 4.4). */
import { z } from "zod";
import type { RequestFn } from "../client/http";
import { parseRecord } from "./records";

export const invoiceRecord = z.object({
  id: z.string(),
  date: z.iso.date(),
  amount: z.number(),
  currency: z.string(),
  status: z.string(),
  pdf_url: z.string(),
});
export type InvoiceRecord = z.output<typeof invoiceRecord>;
export const INVOICE_FIELDS = Object.keys(invoiceRecord.shape) as readonly (keyof InvoiceRecord)[];

export async function getInvoice(request: RequestFn, invoiceId: string): Promise<InvoiceRecord> {
  const response = await request({ method: "GET", path: `/invoices/${encodeURIComponent(invoiceId)}` });
  return parseRecord(invoiceRecord, response.body, "an invoice");
}
