import { expect } from "vitest";
import { startEmulator, type Fixtures, type RunningEmulator } from "../../../emulator";
import { DELIVERY_SECONDS } from "../../../emulator/areas/deliveries/lifecycle";
import { call, closedAfterEach, DANA_KEY, readJson, testFixtures, type ApiRecord } from "../helpers";

/**
 * What the deliveries tests share. At SPEED a simulated minute is 100 ms: the set-up of 120
 * simulated seconds takes 200 ms, and a delivery of one minute runs ten times a second. Times
 * are stored to the millisecond and applied at their own time, so each can be checked exactly
 * however late the test looks.
 */

export const SPEED = 600;
export const MINUTE_MS = 60_000 / SPEED;
export const SETUP_MS = (DELIVERY_SECONDS.setup * 1000) / SPEED;

export const DELIVERY_FIELDS = [
  "id",
  "name",
  "description",
  "status",
  "status_message",
  "interval_amount",
  "interval_unit",
  "source",
  "destination",
  "package_id",
  "last_run_at",
  "next_run_at",
  "owner_id",
  "created_at",
  "updated_at",
  "url",
  "html_url",
] as const;

const WAREHOUSE = {
  id: 301,
  name: "warehouse",
  type: "postgres",
  attributes: { username: "etl", password: "pw", host: "db.example.com", database: "analytics" },
};
const LAKE = { id: 302, name: "lake", type: "s3", attributes: { username: "AKIAEXAMPLE", password: "secret", region: "eu-west-1" } };
const CRM = { id: 306, name: "crm", type: "crm_platform", crmObjects: [{ name: "Contact" }] };
const ADS = { id: 305, name: "ads", type: "ads_platform", adsPlatformCustomers: [{ id: "123-456-7890" }] };

export function deliveryFixtures(extra: Pick<Fixtures["accounts"][number], "deliveries"> = {}): Fixtures {
  const [acme, globex] = testFixtures().accounts;
  return {
    accounts: [
      { ...acme!, connections: [WAREHOUSE, LAKE, CRM, ADS], ...extra },
      { ...globex!, connections: [{ id: 901, name: "globex-db", type: "postgres" }] },
    ],
  };
}

/** A fresh emulator per call, closed after each test of the file that asks for this. */
export function deliveryServices(): (extra?: Parameters<typeof deliveryFixtures>[0], speed?: number) => Promise<RunningEmulator> {
  const track = closedAfterEach();
  return async (extra = {}, speed = SPEED) => track(await startEmulator({ port: 0, speed, creditsPerHour: 1_000_000, fixtures: deliveryFixtures(extra) }));
}

function body(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    source: { connection: { id: 306, type: "crm_platform" }, properties: { object: "Contact" } },
    destination: { connection: { id: 301, type: "postgres" }, properties: { schema_name: "crm" } },
    ...fields,
  };
}

export function postDelivery(emulator: RunningEmulator, fields: Record<string, unknown> = {}): Promise<Response> {
  return call(emulator, "/deliveries", { method: "POST", body: body(fields) });
}

export async function create(emulator: RunningEmulator, fields: Record<string, unknown> = {}, key = DANA_KEY): Promise<ApiRecord> {
  const response = await call(emulator, "/deliveries", { method: "POST", body: body(fields), key });
  expect(response.status, JSON.stringify(await response.clone().json())).toBe(201);
  return readJson(response);
}

export async function read(emulator: RunningEmulator, path: string, key = DANA_KEY): Promise<any> {
  const response = await call(emulator, path, { key });
  expect(response.status).toBe(200);
  return readJson(response);
}

export const after = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();

export async function jobsOf(emulator: RunningEmulator, deliveryId: number): Promise<ApiRecord[]> {
  const jobs = (await read(emulator, "/jobs?limit=100&direction=asc")) as ApiRecord[];
  return jobs.filter((job) => job.creator.type === "Delivery" && job.creator.id === deliveryId);
}
