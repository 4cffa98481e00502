/** An invoice of the account, read by its id (spec 4.4); invoice ids are strings. */
import { z } from "zod";
import { getInvoice as fetchInvoice, type InvoiceRecord } from "../api/invoices";
import { camelCased, type CamelCased } from "../api/records";
import { programFunction, type FunctionContext } from "./context";
import { parseArguments, stringId } from "./arguments";

export interface GetInvoiceArgs {
  invoiceId: string | number;
}

/** The invoice as the service returns it, with camelCase field names. */
export type InvoiceInfo = CamelCased<InvoiceRecord>;

const getInvoiceArgs = z.strictObject({ invoiceId: stringId() });

export const getInvoice = programFunction(async function getInvoice(ctx: FunctionContext, args: GetInvoiceArgs): Promise<InvoiceInfo> {
  const { invoiceId } = parseArguments("getInvoice", getInvoiceArgs, args);
  return camelCased(await fetchInvoice(ctx.request, invoiceId));
});
