/**
 * The program-side functions against the local service, configured through ETL_* environment
 * variables as outside a Pulumi program: results, not-found, argument checks made before any
 * request, and collections read across pages.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createConnectionGroup } from "../../provider/api/connection-groups";
import { createHttpRequest } from "../../provider/client/http";
import {
  ArgumentError,
  getConnection,
  getInvoice,
  getMember,
  getPackage,
  getPackageExport,
  getPackageTemplates,
  getRegions,
  getPublicKey,
  listAdsPlatformCustomers,
  listConnections,
  listCrmObjects,
  listProductUpdates,
  listWebAnalyticsAccounts,
  markNotificationsRead,
  searchConnectionGroups,
  searchPackages,
  validatePackage,
} from "../../provider/functions";

const ACCOUNT = "acme-fn";
const API_KEY = "functions-test-key-0001";
const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG7gKqNO4LLqZGjzIULluAa6RhZbgiiS4Et9g1oNUvzH quickstart-deploy";
const ENV_NAMES = ["ETL_API_URL", "ETL_ACCOUNT_ID", "ETL_API_KEY", "ETL_VENDOR"] as const;
const GROUPS_TO_FIND = 45;

/** Enough items that a listing takes two pages at the service's default size of 20. */
const webAnalyticsAccounts = Array.from({ length: 25 }, (_, i) => ({ id: String(4700 + i), name: `property ${i}` }));
const productUpdates = Array.from({ length: 23 }, (_, i) => ({ id: i + 1, title: `update ${i + 1}` }));

interface LoggedRequest {
  method: string;
  path: string;
  query: string;
  status: number;
}

let emulator: RunningEmulator;
const savedEnv: Partial<Record<(typeof ENV_NAMES)[number], string>> = {};

async function loggedRequests(): Promise<LoggedRequest[]> {
  return (await fetch(`${emulator.url}/_emulator/requests`)).json() as Promise<LoggedRequest[]>;
}

async function resetRequests(): Promise<void> {
  await fetch(`${emulator.url}/_emulator/requests`, { method: "DELETE" });
}

async function failureOf(call: Promise<unknown>): Promise<Error> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "the call should have failed").toBeInstanceOf(Error);
  return error as Error;
}

beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    fixtures: {
      accounts: [
        {
          id: 1,
          uid: ACCOUNT,
          users: [{ id: 1, name: "Dana Platform", email: "dana@example.com", apiKey: API_KEY }],
          publicKeys: [{ id: 10, name: "laptop", publicKey: KEY }],
          packages: [
            { id: 101, name: "orders-daily-rollup", description: "Rolls up orders", variables: { region: "all" } },
            {
              id: 102,
              name: "crm-to-nowhere",
              dataFlow: {
                components: [
                  { name: "deals", type: "source", connection: { id: 306 }, path: "Deal" },
                  { name: "back", type: "destination", connection: { id: 306 }, table: "deals" },
                ],
                edges: [{ from: "deals", to: "back" }],
              },
            },
          ],
          connections: [
            { id: 301, name: "warehouse", type: "postgres" },
            { id: 304, name: "web-analytics", type: "web_analytics", webAnalyticsAccounts },
            { id: 305, name: "ads", type: "ads_platform", adsPlatformCustomers: [{ id: "123-456-7890", name: "Storefront" }] },
            { id: 306, name: "crm", type: "crm_platform", crmObjects: [{ name: "Contact" }, { name: "Deal" }] },
          ],
          connectionGroups: [{ id: 401, name: "warehouses", description: "Where the data lands", connectionIds: [301] }],
          invoices: [{ id: "in_2026_10", date: "2026-10-31", amount: 1312.5, currency: "USD", status: "open" }],
          notifications: [
            { id: 501, title: "Job failed", body: "crm-contacts-sync failed" },
            { id: 502, title: "Cluster idle", body: "shared-sandbox is idle" },
            { id: 503, title: "Welcome", body: "" },
          ],
        },
      ],
      productUpdates,
    },
  });
  for (const name of ENV_NAMES) savedEnv[name] = process.env[name];
  process.env.ETL_API_URL = emulator.url;
  process.env.ETL_ACCOUNT_ID = ACCOUNT;
  process.env.ETL_API_KEY = API_KEY;
  delete process.env.ETL_VENDOR;
});

afterAll(async () => {
  for (const name of ENV_NAMES) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
  await emulator?.close();
});

beforeEach(resetRequests);

describe("getPackage", () => {
  it("returns the package in camelCase, for a number or a string of digits", async () => {
    const expected = {
      id: 101,
      name: "orders-daily-rollup",
      description: "Rolls up orders",
      variables: { region: "all" },
      ownerId: 1,
      status: "active",
      url: expect.stringContaining("/packages/101"),
      htmlUrl: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      flowType: "dataflow",
      version: 1,
      flowVersion: "2.0.0",
      packageVersion: "1.0",
      itemId: expect.any(String),
    };
    const byNumber = await getPackage({ packageId: 101 });
    expect(byNumber).toEqual(expected);
    expect(Object.keys(byNumber).sort()).toEqual([
      "createdAt", "description", "flowType", "flowVersion", "htmlUrl", "id", "itemId", "name", "ownerId", "packageVersion", "status", "updatedAt", "url", "variables", "version",
    ]);
    expect(await getPackage({ packageId: "101" })).toEqual(byNumber);
  });

  it("fails with the service's Item not found. for a missing package", async () => {
    const error = await failureOf(getPackage({ packageId: 999 }));
    expect(error.message).toContain("Item not found.");
    expect(error.message).toContain("/packages/999");
  });
});

describe("the other package functions", () => {
  it("getPackageExport gives the document in the service's own names, ready to post back", async () => {
    const document = await getPackageExport({ packageId: "102" });
    expect(document).toMatchObject({ name: "crm-to-nowhere", flow_type: "dataflow", data_flow_json: { components: [expect.objectContaining({ name: "deals" }), expect.anything()] } });
  });

  it("searchPackages finds by the service's search language, in camelCase", async () => {
    expect((await searchPackages({ q: "name:rollup" })).map((p) => [p.id, p.ownerId])).toEqual([[101, 1]]);
    expect(await failureOf(searchPackages({ q: " " }))).toBeInstanceOf(ArgumentError);
  });

  it("getPackageTemplates lists the templates", async () => {
    expect((await getPackageTemplates())[0]).toMatchObject({ id: 1, name: expect.any(String), position: 1 });
  });

  it("validatePackage answers the finished validation with each broken rule", async () => {
    expect(await validatePackage({ packageId: 101 })).toMatchObject({ packageId: 101, status: "completed", errors: [] });
    const failed = await validatePackage({ packageId: 102 });
    expect(failed.status).toBe("failed");
    expect(failed.errors).toEqual([expect.objectContaining({ component: "back", rule: "connection-role" })]);
    expect(failed.statusMessage).toContain("cannot be written to");
  });
});

describe("getPublicKey", () => {
  it("returns the key in camelCase", async () => {
    expect(await getPublicKey({ keyId: "10" })).toEqual({
      id: 10,
      name: "laptop",
      fingerprint: expect.stringMatching(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/),
      comment: "quickstart-deploy",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      url: expect.stringContaining("/user/keys/10"),
    });
  });

  it("fails with Item not found. for a missing key", async () => {
    expect((await failureOf(getPublicKey({ keyId: 11 }))).message).toContain("Item not found.");
  });
});

describe("getInvoice", () => {
  it("returns the invoice in camelCase; its id is a string", async () => {
    expect(await getInvoice({ invoiceId: "in_2026_10" })).toEqual({
      id: "in_2026_10",
      date: "2026-10-31",
      amount: 1312.5,
      currency: "USD",
      status: "open",
      pdfUrl: expect.any(String),
    });
  });

  it("fails with Item not found. for a missing invoice, a numeric id included", async () => {
    expect((await failureOf(getInvoice({ invoiceId: "in_1999_01" }))).message).toContain("Item not found.");
    expect((await failureOf(getInvoice({ invoiceId: 42 }))).message).toContain("/invoices/42");
  });
});

describe("searchConnectionGroups", () => {
  let created: number[];

  beforeAll(async () => {
    const request = createHttpRequest({ apiUrl: emulator.url, accountId: ACCOUNT, apiKey: API_KEY, vendor: "service" });
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
    const searches = (await loggedRequests()).filter((r) => r.path.endsWith("/connection_groups/search"));
    expect(searches.map((r) => r.query)).toEqual(["q=NIGHTLY", "q=NIGHTLY&offset=20&limit=20", "q=NIGHTLY&offset=40&limit=20"]);
  });

  it("with offset and limit, returns exactly that page", async () => {
    const page = await searchConnectionGroups({ q: "nightly", offset: 10, limit: 5 });
    expect(page.map((g) => g.id)).toEqual(created.slice(10, 15));
    const onlyLimit = await searchConnectionGroups({ q: "nightly", limit: 30 });
    expect(onlyLimit.map((g) => g.id)).toEqual(created.slice(0, 30));
    expect(await loggedRequests()).toHaveLength(2);
  });

  it("finds nothing without failing when nothing matches", async () => {
    expect(await searchConnectionGroups({ q: "no-such-group" })).toEqual([]);
  });
});

describe("the connection listings", () => {
  it("listWebAnalyticsAccounts returns every account, across pages, as the service sends them", async () => {
    expect(await listWebAnalyticsAccounts({ connectionId: 304 })).toEqual(webAnalyticsAccounts);
    expect((await loggedRequests()).map((r) => r.path)).toEqual([`/${ACCOUNT}/api/connections/304/web_analytics/accounts`, `/${ACCOUNT}/api/connections/304/web_analytics/accounts`]);
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
    expect(await loggedRequests()).toHaveLength(2);
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

describe("argument checks", () => {
  const cases: Array<[string, () => Promise<unknown>, string]> = [
    ["getPackage", () => getPackage({ packageId: 0 }), "getPackage: packageId must be a positive integer"],
    ["getPackage", () => getPackage({ packageId: "12a" }), "getPackage: packageId must be a positive integer"],
    ["getPackage", () => getPackage({ packageId: 1.5 }), "getPackage: packageId must be a positive integer"],
    ["getPackage", () => getPackage({} as never), "getPackage: packageId is required"],
    ["getPackage", () => getPackage(undefined as never), "getPackage: packageId is required"],
    ["getPackage", () => getPackage(101 as never), "getPackage: expects an object of arguments, got number"],
    ["getPackage", () => getPackage({ packageId: 1, packageID: 1 } as never), "getPackage: packageID is not an argument of getPackage"],
    ["getPublicKey", () => getPublicKey({ keyId: -3 }), "getPublicKey: keyId must be a positive integer"],
    ["getInvoice", () => getInvoice({ invoiceId: "  " }), "getInvoice: invoiceId must be a non-empty string"],
    ["getInvoice", () => getInvoice({ invoiceId: null } as never), "getInvoice: invoiceId must be a non-empty string"],
    ["searchConnectionGroups", () => searchConnectionGroups({ q: "" }), "searchConnectionGroups: q must be a non-empty string"],
    [
      "searchConnectionGroups",
      () => searchConnectionGroups({ q: "x", offset: -1, limit: 101 }),
      "searchConnectionGroups: offset must be an integer of at least 0; limit must be an integer from 1 to 100",
    ],
    ["searchConnectionGroups", () => searchConnectionGroups({ q: "x", limit: "5" } as never), "searchConnectionGroups: limit must be an integer from 1 to 100"],
    ["listWebAnalyticsAccounts", () => listWebAnalyticsAccounts({ connectionId: "abc" }), "listWebAnalyticsAccounts: connectionId must be a positive integer"],
    ["listAdsPlatformCustomers", () => listAdsPlatformCustomers({ connectionId: 0 }), "listAdsPlatformCustomers: connectionId must be a positive integer"],
    ["listCrmObjects", () => listCrmObjects({ connectionId: 2 ** 60 }), "listCrmObjects: connectionId must be a positive integer"],
    ["markNotificationsRead", () => markNotificationsRead({ id: "all" }), "markNotificationsRead: id must be a positive integer"],
    ["getMember", () => getMember({ email: "dana" }), "getMember: email must be an email address"],
    ["getConnection", () => getConnection({ type: "postgress", id: 301 }), expect.stringMatching(/^getConnection: type must be a connection type: postgres, mysql, /) as unknown as string],
    ["getConnection", () => getConnection({ type: "postgres", id: "warehouse" }), "getConnection: id must be a positive integer"],
    ["listConnections", () => listConnections({ type: "ftp" }), expect.stringMatching(/^listConnections: type must be a connection type: /) as unknown as string],
    ["getRegions", () => getRegions({ type: "postgres" as never }), "getRegions: type must be one of redshift, bigquery, s3, snowflake, athena"],
    ["getRegions", () => getRegions({ type: "snowflake", account: true }), "getRegions: type must not be given with account: the account's regions are not by type"],
  ];

  it.each(cases)("%s refuses a bad argument before any request: %#", async (_name, call, message) => {
    const error = await failureOf(call());
    expect(error).toBeInstanceOf(ArgumentError);
    expect(error.message).toEqual(message);
    expect(await loggedRequests()).toEqual([]);
  });

  it("says how to pass an Output, which is not a plain value", async () => {
    const error = await failureOf(getPackage({ packageId: pulumi.output(101) as never }));
    expect(error.message).toBe("getPackage: packageId is an Output: call getPackage inside apply() to pass its value");
  });

  it("reports missing configuration before any request", async () => {
    const url = process.env.ETL_API_URL;
    delete process.env.ETL_API_URL;
    try {
      const error = await failureOf(getPackage({ packageId: 101 }));
      expect(error.message).toContain("etl:apiUrl is not set");
    } finally {
      process.env.ETL_API_URL = url;
    }
    expect(await loggedRequests()).toEqual([]);
  });
});
