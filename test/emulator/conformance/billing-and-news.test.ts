import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Fixtures, RunningEmulator } from "../../../emulator";
import { getInvoice, INVOICE_FIELDS, invoiceRecord } from "../../../provider/api/invoices";
import {
  markNotificationsRead,
  NOTIFICATION_FIELDS,
  notificationRecord,
  NOTIFICATIONS_MARKED_FIELDS,
  notificationsMarkedRecord,
} from "../../../provider/api/notifications";
import { listProductUpdatesPage, productUpdateRecord } from "../../../provider/api/product-updates";
import { NotFoundError } from "../../../provider/client/errors";
import type { RequestFn } from "../../../provider/client/http";
import { ACCEPT, ACCOUNT, basic, call, DANA_KEY, expectError, expectOnlyFields, fetchAsIs, LEE_KEY, nextLink, OTHER_ACCOUNT, OTHER_KEY, readJson, startTestEmulator, startWithClient, testFixtures } from "../helpers";

const PRODUCT_UPDATES = Array.from({ length: 23 }, (_, i) => ({
  id: i + 1,
  title: `Update ${i + 1}`,
  published_at: `2026-10-${String(i + 1).padStart(2, "0")}T09:00:00Z`,
}));

const CUSTOM_PDF = "https://billing.example/acme/in_2026_08.pdf";

function fixtures(): Fixtures {
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

let emulator: RunningEmulator;
let dana: RequestFn;

beforeEach(async () => {
  ({ emulator, dana } = await startWithClient(fixtures()));
});

afterEach(() => emulator.close());

/** Every item of a collection, walking `rel="next"` from `firstUrl`. */
async function walk(firstUrl: string, key = DANA_KEY): Promise<{ items: unknown[]; pages: number }> {
  const items: unknown[] = [];
  let url: string | undefined = firstUrl;
  let pages = 0;
  while (url !== undefined) {
    const response = await fetchAsIs(url, key);
    expect(response.status).toBe(200);
    items.push(...((await readJson(response)) as unknown[]));
    pages++;
    url = nextLink(response);
  }
  return { items, pages };
}

function postMark(body: string | undefined, contentType: string | undefined, key = DANA_KEY): Promise<Response> {
  const headers: Record<string, string> = { Accept: ACCEPT, Authorization: basic(key) };
  if (contentType !== undefined) headers["Content-Type"] = contentType;
  return fetch(`${emulator.url}/${ACCOUNT}/api/notifications/mark`, { method: "POST", headers, body });
}

async function notificationIds(query = "", key = DANA_KEY): Promise<number[]> {
  const response = await call(emulator, `/notifications${query}`, { key });
  expect(response.status).toBe(200);
  return ((await readJson(response)) as { id: number }[]).map((n) => n.id);
}

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

describe("product updates", () => {
  it("GET /product_updates answers the service-wide items, 20 by default", async () => {
    const response = await call(emulator, "/product_updates");
    expect(response.status).toBe(200);
    const items = (await readJson(response)) as unknown[];
    expect(items.map((item) => productUpdateRecord.parse(item))).toEqual(PRODUCT_UPDATES.slice(0, 20));
    expect(nextLink(response)).toBe(`${emulator.url}/${ACCOUNT}/api/product_updates?offset=20&limit=20`);
  });

  it("walks every item through rel=next, the same for every account", async () => {
    const acme = await walk(`${emulator.url}/${ACCOUNT}/api/product_updates?limit=10`);
    expect(acme).toEqual({ items: PRODUCT_UPDATES, pages: 3 });
    const globex = await walk(`${emulator.url}/${OTHER_ACCOUNT}/api/product_updates?limit=10`, OTHER_KEY);
    expect(globex).toEqual(acme);
  });

  it("is read a page at a time by the provider", async () => {
    const page = await listProductUpdatesPage(dana, { offset: 20, limit: 10 });
    expect(page.items).toEqual(PRODUCT_UPDATES.slice(20));
    expect(page.link).toBe(`<${emulator.url}/${ACCOUNT}/api/product_updates?offset=10&limit=10>; rel="prev"`);
  });
});

describe("GET /notifications", () => {
  it("lists the caller's own notifications, newest first, with the assumed fields only", async () => {
    const response = await call(emulator, "/notifications");
    expect(response.status).toBe(200);
    const items = (await readJson(response)) as unknown[];
    for (const item of items) expectOnlyFields(item, NOTIFICATION_FIELDS);
    expect(items.map((item) => notificationRecord.parse(item))).toEqual([
      { id: 503, title: "Package archived", body: "", read: false, created_at: "2026-11-03T08:00:00.000Z", url: `${emulator.url}/${ACCOUNT}/api/notifications/503` },
      { id: 502, title: "Cluster terminated", body: "", read: true, created_at: "2026-11-02T10:00:00.000Z", url: `${emulator.url}/${ACCOUNT}/api/notifications/502` },
      {
        id: 501,
        title: "Job 'crm-contacts-sync' failed",
        body: "The CRM token has expired.",
        read: false,
        created_at: "2026-11-01T10:00:00.000Z",
        url: `${emulator.url}/${ACCOUNT}/api/notifications/501`,
      },
    ]);
    expect(await notificationIds("", LEE_KEY)).toEqual([504]);
  });

  it("filters by read=true and read=false", async () => {
    expect(await notificationIds("?read=false")).toEqual([503, 501]);
    expect(await notificationIds("?read=true")).toEqual([502]);
  });

  it("answers the url of a notification, and 404 for another user's", async () => {
    const response = await fetchAsIs(`${emulator.url}/${ACCOUNT}/api/notifications/501`);
    expect(notificationRecord.parse(await readJson(response)).id).toBe(501);
    await expectError(await call(emulator, "/notifications/504"), 404, "Item not found.");
  });
});

describe("POST /notifications/mark", () => {
  it("marks one notification read and answers how many changed", async () => {
    const response = await call(emulator, "/notifications/mark", { method: "POST", body: { id: 501 } });
    expect(response.status).toBe(200);
    const body = await readJson(response);
    expectOnlyFields(body, NOTIFICATIONS_MARKED_FIELDS);
    expect(notificationsMarkedRecord.parse(body)).toEqual({ marked: 1 });
    expect(await notificationIds("?read=false")).toEqual([503]);
    const again = await call(emulator, "/notifications/mark", { method: "POST", body: { id: 501 } });
    expect(await readJson(again)).toEqual({ marked: 0 });
  });

  it("marks all of the caller's notifications, and only the caller's", async () => {
    const response = await call(emulator, "/notifications/mark", { method: "POST", body: {} });
    expect(await readJson(response)).toEqual({ marked: 2 });
    expect(await notificationIds("?read=false")).toEqual([]);
    expect(await notificationIds("?read=false", LEE_KEY)).toEqual([504]);
    const other = await call(emulator, "/notifications?read=false", { key: OTHER_KEY, account: OTHER_ACCOUNT });
    expect(((await readJson(other)) as { id: number }[]).map((n) => n.id)).toEqual([505]);
  });

  it("takes a request with no body at all, and no Content-Type, as marking all", async () => {
    const response = await postMark(undefined, undefined);
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ marked: 2 });
  });

  it.each([["application/json"], [undefined]])("takes an empty body sent as %s as marking all", async (contentType) => {
    const response = await postMark("", contentType);
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ marked: 2 });
  });

  it("is called by the provider's markNotificationsRead for one and for all", async () => {
    expect(await markNotificationsRead(dana, { id: 503 })).toBe(1);
    expect(await markNotificationsRead(dana)).toBe(1);
    expect(await notificationIds("?read=false")).toEqual([]);
  });

  it("answers 404 for another user's or another account's notification and marks nothing", async () => {
    await expectError(await call(emulator, "/notifications/mark", { method: "POST", body: { id: 504 } }), 404, "Item not found.");
    await expectError(await call(emulator, "/notifications/mark", { method: "POST", body: { id: 505 } }), 404, "Item not found.");
    await expect(markNotificationsRead(dana, { id: 999 })).rejects.toBeInstanceOf(NotFoundError);
    expect(await notificationIds("?read=false", LEE_KEY)).toEqual([504]);
    expect(await notificationIds("?read=false")).toEqual([503, 501]);
  });
});

describe("fixtures", () => {
  it("refuse a notification for a user of another account", async () => {
    const bad = fixtures();
    bad.accounts[0]!.notifications = [{ userId: 3, title: "misplaced" }];
    await expect(startTestEmulator(bad)).rejects.toThrow(/notifications\[0\]\.userId: no user with id 3 in this account/);
  });

  it("refuse two invoices of an account with the same id", async () => {
    const bad = fixtures();
    bad.accounts[0]!.invoices = [
      { id: "in_1", date: "2026-01-31", amount: 1 },
      { id: "in_1", date: "2026-02-28", amount: 2 },
    ];
    await expect(startTestEmulator(bad)).rejects.toThrow(/invoices\[1\]\.id: duplicate invoice id "in_1"/);
  });
});

describe("malformed requests", () => {
  it.each<[string, string | undefined, string | undefined, number, string | RegExp]>([
    ["id as a string", '{"id": "501"}', "application/json", 422, "id must be an integer"],
    ["id fractional", '{"id": 501.5}', "application/json", 422, "id must be an integer"],
    ["id null", '{"id": null}', "application/json", 422, "id must be an integer"],
    ["id a list", '{"id": [501]}', "application/json", 422, "id must be an integer"],
    ["unknown field", '{"id": 501, "all": true}', "application/json", 422, "all is not a known field"],
    ["body an array", "[501]", "application/json", 400, "Request body must be a JSON object."],
    ["body a number", "501", "application/json", 400, "Request body must be a JSON object."],
    ["body not JSON", "{id: 501}", "application/json", 400, "Request body is not valid JSON."],
    ["body sent as text/plain", '{"id": 501}', "text/plain", 415, /Content-Type: application\/json/],
    ["body in another charset", '{"id": 501}', "application/json; charset=iso-8859-1", 415, /charset must be utf-8/],
    ["unknown id", '{"id": 999}', "application/json", 404, "Item not found."],
  ])("mark: %s", async (_what, body, contentType, status, message) => {
    await expectError(await postMark(body, contentType), status, message);
    expect(await notificationIds("?read=false")).toEqual([503, 501]);
  });

  it.each([
    ["/notifications?read=yes", 400, /^read must be a boolean: true or false/],
    ["/notifications?read=", 400, /^read must be a boolean: true or false/],
    ["/notifications?limit=101", 400, /^limit must be/],
    ["/product_updates?offset=x", 400, /^offset must be/],
    ["/invoices?limit=0", 400, /^limit must be/],
    ["/notifications/abc", 404, "Item not found."],
  ])("GET %s", async (path, status, message) => {
    await expectError(await call(emulator, path), status, message);
  });

  it("answers 405 to GET /notifications/mark", async () => {
    const response = await call(emulator, "/notifications/mark");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });
});
