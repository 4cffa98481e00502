import { afterEach, beforeEach } from "vitest";
import type { Fixtures, RunningEmulator } from "../../../emulator";
import type { RequestFn } from "../../../provider/client/http";
import { startWithClient, testFixtures } from "../helpers";

/** What the tests of invoices, product updates and notifications share: an account with each. */

export const PRODUCT_UPDATES = Array.from({ length: 23 }, (_, i) => ({
  id: i + 1,
  title: `Update ${i + 1}`,
  published_at: `2026-10-${String(i + 1).padStart(2, "0")}T09:00:00Z`,
}));

export const CUSTOM_PDF = "https://billing.example/acme/in_2026_08.pdf";

export function billingAndNewsFixtures(): Fixtures {
  const [acme, globex] = testFixtures().accounts;
  return {
    accounts: [
      {
        ...acme!,
        invoices: [
          { id: "in_2026_09", date: "2026-09-30", amount: 1250.0, currency: "USD", status: "paid" },
          { id: "in_2026_10", date: "2026-10-31", amount: 1312.5, currency: "USD", status: "open" },
          { id: "in_2026_08", date: "2026-08-31", amount: 990, pdfUrl: CUSTOM_PDF },
        ],
        notifications: [
          { id: 501, title: "Job 'crm-contacts-sync' failed", body: "The CRM token has expired.", createdAt: "2026-11-01T10:00:00Z" },
          { id: 502, userId: 1, title: "Cluster terminated", read: true, createdAt: "2026-11-02T10:00:00Z" },
          { id: 503, userId: 1, title: "Package archived", createdAt: "2026-11-03T10:00:00+02:00" },
          { id: 504, userId: 2, title: "Welcome, Lee" },
        ],
      },
      {
        ...globex!,
        invoices: [{ id: "in_globex_01", date: "2026-10-31", amount: 10 }],
        notifications: [{ id: 505, title: "Globex only" }],
      },
    ],
    productUpdates: PRODUCT_UPDATES,
  };
}

type Started = { emulator: RunningEmulator; dana: RequestFn };

/** A fresh emulator with these fixtures for each test of the file, handed to `use` and closed after the test. */
export function startedForEachTest(use: (started: Started) => void): void {
  let started: Started;
  beforeEach(async () => {
    started = await startWithClient(billingAndNewsFixtures());
    use(started);
  });
  afterEach(() => started.emulator.close());
}
