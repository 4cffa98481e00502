/**
 * The program-side functions that read collections against the emulator: searches and
 * listings read across pages (or one page when asked), and notifications marked read.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createConnectionGroup } from "../../provider/api/connection-groups";
import { createHttpRequest } from "../../provider/client/http";
import {
  listAdsPlatformCustomers,
  listCrmObjects,
  listProductUpdates,
  listWebAnalyticsAccounts,
  markNotificationsRead,
  searchConnectionGroups,
} from "../../provider/functions";
import { ACCOUNT, API_KEY, failureOf, productUpdates, useFunctionsService, webAnalyticsAccounts } from "../support/functions-service";

const service = useFunctionsService();
const GROUPS_TO_FIND = 45;

describe("searchConnectionGroups", () => {
  let created: number[];

  beforeAll(async () => {
    const request = createHttpRequest({ apiUrl: service.url(), accountId: ACCOUNT, apiKey: API_KEY, vendor: "service" });
    created = [];
    for (let i = 0; i < GROUPS_TO_FIND; i++) {
      const group = await createConnectionGroup(request, { connection_group: { name: `nightly-${String(i).padStart(2, "0")}` } });
      created.push(group.id);
    }
  });

  it("returns a group in camelCase, as spec 2.7 describes it", async () => {
    expect(await searchConnectionGroups({ q: "warehouses" })).toEqual([
      {
        id: 401,
        name: "warehouses",
        description: "Where the data lands",
        accountId: 1,
        modifiedBy: { name: "Dana Platform", email: "dana@example.com" },
        connections: [{ id: 301, name: "warehouse", type: "postgres" }],
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
  });

  it("without offset or limit, returns every match by following the Link header", async () => {
    const groups = await searchConnectionGroups({ q: "NIGHTLY" });
    expect(groups.map((g) => g.id)).toEqual(created);
    const searches = (await service.loggedRequests()).filter((r) => r.path.endsWith("/connection_groups/search"));
    expect(searches.map((r) => r.query)).toEqual(["q=NIGHTLY", "q=NIGHTLY&offset=20&limit=20", "q=NIGHTLY&offset=40&limit=20"]);
  });

  it("with offset and limit, returns exactly that page", async () => {
    const page = await searchConnectionGroups({ q: "nightly", offset: 10, limit: 5 });
    expect(page.map((g) => g.id)).toEqual(created.slice(10, 15));
    const onlyLimit = await searchConnectionGroups({ q: "nightly", limit: 30 });
    expect(onlyLimit.map((g) => g.id)).toEqual(created.slice(0, 30));
    expect(await service.loggedRequests()).toHaveLength(2);
  });

  it("finds nothing without failing when nothing matches", async () => {
    expect(await searchConnectionGroups({ q: "no-such-group" })).toEqual([]);
  });
});

describe("the connection listings", () => {
  it("listWebAnalyticsAccounts returns every account, across pages, as the service sends them", async () => {
    expect(await listWebAnalyticsAccounts({ connectionId: 304 })).toEqual(webAnalyticsAccounts);
    expect((await service.loggedRequests()).map((r) => r.path)).toEqual([
      `/${ACCOUNT}/api/connections/304/web_analytics/accounts`,
      `/${ACCOUNT}/api/connections/304/web_analytics/accounts`,
    ]);
  });

  it("listAdsPlatformCustomers returns the customers", async () => {
    expect(await listAdsPlatformCustomers({ connectionId: "305" })).toEqual([{ id: "123-456-7890", name: "Storefront" }]);
  });

  it("listCrmObjects returns the objects", async () => {
    expect(await listCrmObjects({ connectionId: 306 })).toEqual([{ name: "Contact" }, { name: "Deal" }]);
  });

  it.each([
    ["listWebAnalyticsAccounts", listWebAnalyticsAccounts],
    ["listAdsPlatformCustomers", listAdsPlatformCustomers],
    ["listCrmObjects", listCrmObjects],
  ] as const)("%s fails with Item not found. for a missing connection", async (_name, list) => {
    expect((await failureOf(list({ connectionId: 999 }))).message).toContain("Item not found.");
  });
});

describe("listProductUpdates", () => {
  it("returns every update across pages, as the service sends them", async () => {
    expect(await listProductUpdates()).toEqual(productUpdates);
    expect(await service.loggedRequests()).toHaveLength(2);
  });
});

describe("markNotificationsRead", () => {
  it("marks one notification, then all the others, reporting how many changed", async () => {
    expect(await markNotificationsRead({ id: 501 })).toEqual({ marked: 1 });
    expect(await markNotificationsRead({ id: "501" })).toEqual({ marked: 0 });
    expect(await markNotificationsRead()).toEqual({ marked: 2 });
    expect(await markNotificationsRead({})).toEqual({ marked: 0 });
  });

  it("fails with Item not found. for a missing notification", async () => {
    expect((await failureOf(markNotificationsRead({ id: 999 }))).message).toContain("Item not found.");
  });
});
