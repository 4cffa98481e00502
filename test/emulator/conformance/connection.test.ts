import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Fixtures, RunningEmulator } from "../../../emulator";
import {
  CONNECTION_FIELDS,
  connectionRecord,
  listAdsPlatformCustomers,
  listCrmObjects,
  listingItemRecord,
  listWebAnalyticsAccounts,
} from "../../../provider/api/connections";
import type { RequestFn } from "../../../provider/client/http";
import { NotFoundError, ValidationError } from "../../../provider/client/errors";
import {
  ACCEPT,
  ACCOUNT,
  basic,
  call,
  DANA_KEY,
  expectError,
  OTHER_ACCOUNT,
  OTHER_KEY,
  readJson,
  startTestEmulator,
  startWithClient,
  testFixtures,
} from "../helpers";

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const ANALYTICS_ACCOUNTS = [
  { id: "4711", name: "acme.example storefront" },
  { id: "4712", name: "acme.example blog" },
];
const ADS_CUSTOMERS = [{ id: "123-456-7890", name: "Acme Brand Campaigns", currency: "USD" }];
/** More than one page, so the listing's pagination is exercised. */
const CRM_OBJECTS = Array.from({ length: 25 }, (_, i) => ({ name: `Object${i + 1}`, label: `Objects ${i + 1}` }));

function fixtures(): Fixtures {
  const [acme, globex] = testFixtures().accounts;
  return {
    accounts: [
      {
        ...acme!,
        connections: [
          { id: 301, name: "warehouse", type: "postgres" },
          { id: 302, name: "raw-events", type: "s3" },
          { id: 304, name: "web-analytics", type: "web_analytics", webAnalyticsAccounts: ANALYTICS_ACCOUNTS },
          { id: 305, name: "ads", type: "ads_platform", adsPlatformCustomers: ADS_CUSTOMERS },
          { id: 306, name: "crm", type: "crm_platform", crmObjects: CRM_OBJECTS },
          { id: 307, name: "crm-sandbox", type: "crm_platform" },
        ],
      },
      {
        ...globex!,
        connections: [
          { id: 351, name: "globex-db", type: "postgres" },
          { id: 354, name: "globex-analytics", type: "web_analytics", webAnalyticsAccounts: [{ id: "9999", name: "globex secret site" }] },
        ],
      },
    ],
  };
}

let emulator: RunningEmulator;
let dana: RequestFn;

beforeAll(async () => {
  ({ emulator, dana } = await startWithClient(fixtures()));
});

afterAll(() => emulator.close());

/** The provider's fields, `unique_id`, and the type's non-secret attributes (checked in connection-records). */
function expectConnection(body: unknown): { id: number; name: string; type: string } {
  const connection = connectionRecord.parse(body);
  expect(Object.keys(body as object)).toEqual(expect.arrayContaining([...CONNECTION_FIELDS, "unique_id"]));
  expect(connection.created_at).toMatch(ISO_TIME);
  expect(connection.url).toBe(`${emulator.url}/${ACCOUNT}/api/connections/${connection.type}/${connection.id}`);
  return connection;
}

describe("GET /connections", () => {
  it("lists the account's connections with their types, in id order when asked", async () => {
    const response = await call(emulator, "/connections?sort=id&direction=asc");
    expect(response.status).toBe(200);
    const connections = ((await readJson(response)) as unknown[]).map(expectConnection);
    expect(connections.map(({ id, type }) => [id, type])).toEqual([
      [301, "postgres"],
      [302, "s3"],
      [304, "web_analytics"],
      [305, "ads_platform"],
      [306, "crm_platform"],
      [307, "crm_platform"],
    ]);
  });

  it("pages with offset and limit", async () => {
    const response = await call(emulator, "/connections?sort=id&direction=asc&offset=2&limit=2");
    expect(((await readJson(response)) as { id: number }[]).map((c) => c.id)).toEqual([304, 305]);
    const base = `${emulator.url}/${ACCOUNT}/api/connections?sort=id&direction=asc`;
    expect(response.headers.get("link")).toBe(`<${base}&offset=4&limit=2>; rel="next", <${base}&offset=0&limit=2>; rel="prev"`);
  });
});

describe("GET /connections/{connection_id}", () => {
  it("answers the connection", async () => {
    const response = await call(emulator, "/connections/302");
    expect(response.status).toBe(200);
    expect(expectConnection(await readJson(response))).toMatchObject({ id: 302, name: "raw-events", type: "s3" });
  });

  it.each([["/connections/999"], ["/connections/x1"], ["/connections/351"]])("answers 404 for %s", async (path) => {
    await expectError(await call(emulator, path), 404, "Item not found.");
  });
});

describe("the three listings (spec 4.6–4.8)", () => {
  it("lists web analytics accounts", async () => {
    const response = await call(emulator, "/connections/304/web_analytics/accounts");
    expect(response.status).toBe(200);
    const items = (await readJson(response)) as unknown[];
    expect(items.map((item) => listingItemRecord.parse(item))).toEqual(ANALYTICS_ACCOUNTS);
    expect(response.headers.get("link")).toBeNull();
  });

  it("lists ads platform customers through the provider", async () => {
    expect(await listAdsPlatformCustomers(dana, 305)).toEqual({ items: ADS_CUSTOMERS, link: undefined });
  });

  it("lists CRM objects a page at a time, with the Link header", async () => {
    const first = await listCrmObjects(dana, 306, { limit: 10 });
    expect(first.items).toEqual(CRM_OBJECTS.slice(0, 10));
    expect(first.link).toBe(`<${emulator.url}/${ACCOUNT}/api/connections/306/crm_platform/objects?offset=10&limit=10>; rel="next"`);
  });

  it("walks every CRM object by fetching each rel=next URL as given", async () => {
    const seen: unknown[] = [];
    let url: string | undefined = `${emulator.url}/${ACCOUNT}/api/connections/306/crm_platform/objects?limit=10`;
    let pages = 0;
    while (url !== undefined) {
      const response = await fetch(url, { headers: { Accept: ACCEPT, Authorization: basic(DANA_KEY) } });
      expect(response.status).toBe(200);
      seen.push(...((await readJson(response)) as unknown[]));
      pages++;
      url = /<([^>]+)>; rel="next"/.exec(response.headers.get("link") ?? "")?.[1];
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(CRM_OBJECTS);
  });

  it("answers an empty array for a connection of the right kind with nothing to list", async () => {
    const response = await call(emulator, "/connections/307/crm_platform/objects");
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual([]);
  });

  it.each([
    ["/connections/301/web_analytics/accounts", "connection 301 is a postgres connection; web analytics accounts are listed for web_analytics connections"],
    ["/connections/304/ads_platform/customers", "connection 304 is a web_analytics connection; ads platform customers are listed for ads_platform connections"],
    ["/connections/305/crm_platform/objects", "connection 305 is an ads_platform connection; CRM objects are listed for crm_platform connections"],
  ])("answers 422 for a connection of another kind: %s", async (path, message) => {
    await expectError(await call(emulator, path), 422, message);
  });

  it("gives the provider a ValidationError for a connection of another kind", async () => {
    await expect(listWebAnalyticsAccounts(dana, 301)).rejects.toBeInstanceOf(ValidationError);
  });

  it.each([["/connections/999/web_analytics/accounts"], ["/connections/999/ads_platform/customers"], ["/connections/999/crm_platform/objects"]])(
    "answers 404 for an unknown connection: %s",
    async (path) => {
      await expectError(await call(emulator, path), 404, "Item not found.");
    },
  );

  it("rejects bad paging parameters with 400 naming the parameter", async () => {
    await expectError(await call(emulator, "/connections/306/crm_platform/objects?limit=abc"), 400, /^limit must be/);
  });
});

describe("isolation between accounts", () => {
  it("answers 404 to another account's connection and its listing, never its data", async () => {
    const response = await call(emulator, "/connections/354/web_analytics/accounts");
    await expectError(response, 404, "Item not found.");
    await expect(listWebAnalyticsAccounts(dana, 354)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("serves the owning account normally", async () => {
    const response = await call(emulator, "/connections/354/web_analytics/accounts", { key: OTHER_KEY, account: OTHER_ACCOUNT });
    expect(await readJson(response)).toEqual([{ id: "9999", name: "globex secret site" }]);
    const list = (await readJson(await call(emulator, "/connections?sort=id&direction=asc", { key: OTHER_KEY, account: OTHER_ACCOUNT }))) as { id: number }[];
    expect(list.map((c) => c.id)).toEqual([351, 354]);
  });
});

describe("fixtures", () => {
  it("refuse listing items given to a connection of another kind", async () => {
    const bad = fixtures();
    bad.accounts[0]!.connections = [{ id: 301, name: "warehouse", type: "postgres", crmObjects: [{ name: "Account" }] }];
    await expect(startTestEmulator(bad)).rejects.toThrow(/connections\[0\]\.crmObjects: only crm_platform connections list CRM objects/);
  });

  it("refuse a connection id used by two accounts", async () => {
    const bad = fixtures();
    bad.accounts[1]!.connections = [{ id: 301, name: "copy", type: "postgres" }];
    await expect(startTestEmulator(bad)).rejects.toThrow(/duplicate connection id 301/);
  });
});
