/** An invoice of the account, read by its id (spec 4.4); invoice ids are strings. */
import { z } from "zod";
import { getInvoice as fetchInvoice, type InvoiceRecord } from "../api/invoices";
import { programRequest } from "../context";
import { parseArguments, stringId } from "./arguments";

export interface GetInvoiceArgs {
  invoiceId: string | number;
}

export interface InvoiceInfo {
  id: string;
  /** A calendar date, YYYY-MM-DD. */
  date: string;
  amount: number;
  currency: string;
  status: string;
  pdfUrl: string;
}

const getInvoiceArgs = z.strictObject({ invoiceId: stringId() });

export async function getInvoice(args: GetInvoiceArgs): Promise<InvoiceInfo> {
  const { invoiceId } = parseArguments("getInvoice", getInvoiceArgs, args);
  return invoiceInfoOf(await fetchInvoice(programRequest(), invoiceId));
}

function invoiceInfoOf(record: InvoiceRecord): InvoiceInfo {
  return {
    id: record.id,
    date: record.date,
    amount: record.amount,
    currency: record.currency,
    status: record.status,
    pdfUrl: record.pdf_url,
  };
}
