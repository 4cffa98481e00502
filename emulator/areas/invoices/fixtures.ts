import { z } from "zod";
import type { FixtureAccount } from "../../fixtures/account";
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

function seedInvoices(store: Store, account: FixtureAccount, invoices: InvoiceFixture[]): void {
  invoices.forEach((invoice, index) => {
    if (findInvoice(store, account.id, invoice.id) !== undefined) {
      throw fixtureProblem(account, `invoices[${index}].id`, `duplicate invoice id ${JSON.stringify(invoice.id)}`);
    }
    store.insert(INVOICES, {
      accountId: account.id,
      invoiceId: invoice.id,
      date: invoice.date,
      amount: invoice.amount,
      currency: invoice.currency,
      status: invoice.status,
      ...(invoice.pdfUrl === undefined ? {} : { pdfUrl: invoice.pdfUrl }),
    });
  });
}

export const invoiceFixtures = accountFixtures({
  field: "invoices",
  schema: z.array(invoiceSchema).default([]),
  seed: seedInvoices,
});
