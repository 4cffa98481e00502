import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator";
import { getInvoice, INVOICE_FIELDS, invoiceRecord } from "../../../provider/api/invoices";
import { NotFoundError } from "../../../provider/client/errors";
import type { RequestFn } from "../../../provider/client/http";
import { ACCOUNT, call, expectError, expectOnlyFields, fetchAsIs, nextLink, OTHER_ACCOUNT, OTHER_KEY, readJson, startTestEmulator } from "../helpers";
import { billingAndNewsFixtures, CUSTOM_PDF, startedForEachTest } from "./helpers-billing-and-news";

/** Invoices of an account: one, the list, and what the fixtures may not hold. */

let emulator: RunningEmulator;
let dana: RequestFn;

startedForEachTest((started) => ({ emulator, dana } = started));

describe("invoices", () => {
  it("GET /invoices/{invoice_id} answers every field of spec 2.6 and nothing else", async () => {
    const response = await call(emulator, "/invoices/in_2026_10");
    expect(response.status).toBe(200);
    const body = await readJson(response);
    expectOnlyFields(body, INVOICE_FIELDS);
    expect(invoiceRecord.parse(body)).toEqual({
      id: "in_2026_10",
      date: "2026-10-31",
      amount: 1312.5,
      currency: "USD",
      status: "open",
      pdf_url: `${emulator.url}/${ACCOUNT}/invoices/in_2026_10.pdf`,
    });
  });

  it("keeps a PDF address given by the fixtures and applies the defaults", async () => {
    expect(await getInvoice(dana, "in_2026_08")).toEqual({
      id: "in_2026_08",
      date: "2026-08-31",
      amount: 990,
      currency: "USD",
      status: "paid",
      pdf_url: CUSTOM_PDF,
    });
  });

  it("GET /invoices lists newest first and pages with Link", async () => {
    const response = await call(emulator, "/invoices?limit=2");
    expect(response.status).toBe(200);
    const items = (await readJson(response)) as unknown[];
    expect(items.map((item) => invoiceRecord.parse(item).id)).toEqual(["in_2026_10", "in_2026_09"]);
    const next = nextLink(response);
    expect(next).toBe(`${emulator.url}/${ACCOUNT}/api/invoices?offset=2&limit=2`);
    expect(((await readJson(await fetchAsIs(next!))) as { id: string }[]).map((i) => i.id)).toEqual(["in_2026_08"]);
  });

  it.each([["/invoices/in_2099_01"], ["/invoices/in_globex_01"], ["/invoices/%E0%A4%A"]])("answers 404 for %s", async (path) => {
    await expectError(await call(emulator, path), 404, "Item not found.");
  });

  it("gives the provider a NotFoundError for another account's invoice, which its own account can read", async () => {
    await expect(getInvoice(dana, "in_globex_01")).rejects.toBeInstanceOf(NotFoundError);
    const own = await call(emulator, "/invoices/in_globex_01", { key: OTHER_KEY, account: OTHER_ACCOUNT });
    expect(invoiceRecord.parse(await readJson(own))).toMatchObject({ id: "in_globex_01", amount: 10 });
  });
});

describe("fixtures", () => {
  it("refuse two invoices of an account with the same id", async () => {
    const bad = billingAndNewsFixtures();
    bad.accounts[0]!.invoices = [
      { id: "in_1", date: "2026-01-31", amount: 1 },
      { id: "in_1", date: "2026-02-28", amount: 2 },
    ];
    await expect(startTestEmulator(bad)).rejects.toThrow(/invoices\[1\]\.id: duplicate invoice id "in_1"/);
  });
});
