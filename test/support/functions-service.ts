/**
 * The emulator the program-side functions' unit tests call, configured through the ETL_*
 * environment variables as outside a Pulumi program, with records for every function to find.
 */
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";

export const ACCOUNT = "acme-fn";
export const API_KEY = "functions-test-key-0001";
const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG7gKqNO4LLqZGjzIULluAa6RhZbgiiS4Et9g1oNUvzH quickstart-deploy";
const ENV_NAMES = ["ETL_API_URL", "ETL_ACCOUNT_ID", "ETL_API_KEY", "ETL_VENDOR"] as const;

/** Enough items that a listing takes two pages at the service's default size of 20. */
export const webAnalyticsAccounts = Array.from({ length: 25 }, (_, i) => ({ id: String(4700 + i), name: `property ${i}` }));
export const productUpdates = Array.from({ length: 23 }, (_, i) => ({ id: i + 1, title: `update ${i + 1}` }));

export interface LoggedRequest {
  method: string;
  path: string;
  query: string;
  status: number;
}

export interface FunctionsService {
  url(): string;
  /** The requests since the test began. */
  loggedRequests(): Promise<LoggedRequest[]>;
}

export async function failureOf(call: Promise<unknown>): Promise<Error> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "the call should have failed").toBeInstanceOf(Error);
  return error as Error;
}

/** Starts the service before the file's tests and points the environment at it; each test starts with an empty request log. */
export function useFunctionsService(): FunctionsService {
  let emulator: RunningEmulator;
  const savedEnv: Partial<Record<(typeof ENV_NAMES)[number], string>> = {};
  const requestsUrl = () => `${emulator.url}/_emulator/requests`;

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

  beforeEach(async () => {
    await fetch(requestsUrl(), { method: "DELETE" });
  });

  return {
    url: () => emulator.url,
    loggedRequests: async () => (await fetch(requestsUrl())).json() as Promise<LoggedRequest[]>,
  };
}
