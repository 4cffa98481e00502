import { z } from "zod";
import { seedRows, type FixtureAccount } from "../../fixtures/account";
import { fixtureProblem } from "../../fixtures/errors";
import type { Store } from "../../store";
import { accountFixtures } from "../area";
import { findInvoice, INVOICES } from "./model";

/** `invoices` of an account, with the billing system's own string ids. */

const invoiceSchema = z.object({
  id: z.string().min(1),
  date: z.iso.date(),
  amount: z.number(),
  currency: z.string().min(1).default("USD"),
  status: z.string().min(1).default("paid"),
  pdfUrl: z.string().optional(),
});

type InvoiceFixture = z.output<typeof invoiceSchema>;

/** The row keeps the invoice's own id as `invoiceId`; its `id` is the table's. */
function seedInvoices(store: Store, account: FixtureAccount, invoices: InvoiceFixture[]): void {
  seedRows(store, INVOICES, invoices, ({ id: invoiceId, pdfUrl, ...invoice }, index) => {
    if (findInvoice(store, account.id, invoiceId) !== undefined) {
      throw fixtureProblem(account, `invoices[${index}].id`, `duplicate invoice id ${JSON.stringify(invoiceId)}`);
    }
    return { accountId: account.id, invoiceId, ...invoice, ...(pdfUrl === undefined ? {} : { pdfUrl }) };
  });
}

export const invoiceFixtures = accountFixtures({
  field: "invoices",
  schema: z.array(invoiceSchema).default([]),
  seed: seedInvoices,
});
