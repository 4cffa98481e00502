import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator";
import {
  markNotificationsRead,
  NOTIFICATION_FIELDS,
  notificationRecord,
  NOTIFICATIONS_MARKED_FIELDS,
  notificationsMarkedRecord,
} from "../../../provider/api/notifications";
import { NotFoundError } from "../../../provider/client/errors";
import type { RequestFn } from "../../../provider/client/http";
import {
  ACCEPT,
  ACCOUNT,
  basic,
  call,
  DANA_KEY,
  expectError,
  expectOnlyFields,
  fetchAsIs,
  LEE_KEY,
  OTHER_ACCOUNT,
  OTHER_KEY,
  readJson,
  startTestEmulator,
} from "../helpers";
import { billingAndNewsFixtures, startedForEachTest } from "./helpers-billing-and-news";

/** Notifications of a user: the list, marking them read, what the fixtures may not hold, and malformed requests. */

let emulator: RunningEmulator;
let dana: RequestFn;

startedForEachTest((started) => ({ emulator, dana } = started));

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

describe("GET /notifications", () => {
  it("lists the caller's own notifications, newest first, with the assumed fields only", async () => {
    const response = await call(emulator, "/notifications");
    expect(response.status).toBe(200);
    const items = (await readJson(response)) as unknown[];
    for (const item of items) expectOnlyFields(item, NOTIFICATION_FIELDS);
    expect(items.map((item) => notificationRecord.parse(item))).toEqual([
      {
        id: 503,
        title: "Package archived",
        body: "",
        read: false,
        created_at: "2026-11-03T08:00:00.000Z",
        url: `${emulator.url}/${ACCOUNT}/api/notifications/503`,
      },
      {
        id: 502,
        title: "Cluster terminated",
        body: "",
        read: true,
        created_at: "2026-11-02T10:00:00.000Z",
        url: `${emulator.url}/${ACCOUNT}/api/notifications/502`,
      },
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
    const bad = billingAndNewsFixtures();
    bad.accounts[0]!.notifications = [{ userId: 3, title: "misplaced" }];
    await expect(startTestEmulator(bad)).rejects.toThrow(/notifications\[0\]\.userId: no user with id 3 in this account/);
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
