import { describe, expect, it } from "vitest";
import { startEmulator, type Fixtures, type RunningEmulator } from "../../emulator";
import { DELIVERY_SECONDS } from "../../emulator/areas/deliveries/lifecycle";
import { ACCOUNT, call, closedAfterEach, DANA_KEY, expectError, expectOnlyFields, fetchAsIs, LEE_KEY, OTHER_ACCOUNT, OTHER_KEY, readJson, testFixtures } from "./helpers";
import { until, type ApiRecord } from "./schedule-support";

/**
 * Deliveries on the service's clock. At SPEED a simulated minute is 100 ms: the set-up of 120
 * simulated seconds takes 200 ms, and a delivery of one minute runs ten times a second. Times
 * are stored to the millisecond and applied at their own time, so each can be checked exactly
 * however late the test looks.
 */

const SPEED = 600;
const MINUTE_MS = 60_000 / SPEED;
const SETUP_MS = (DELIVERY_SECONDS.setup * 1000) / SPEED;

const DELIVERY_FIELDS = [
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

const WAREHOUSE = { id: 301, name: "warehouse", type: "postgres", attributes: { username: "etl", password: "pw", host: "db.example.com", database: "analytics" } };
const LAKE = { id: 302, name: "lake", type: "s3", attributes: { username: "AKIAEXAMPLE", password: "secret", region: "eu-west-1" } };
const CRM = { id: 306, name: "crm", type: "crm_platform", crmObjects: [{ name: "Contact" }] };
const ADS = { id: 305, name: "ads", type: "ads_platform", adsPlatformCustomers: [{ id: "123-456-7890" }] };

function fixtures(extra: Pick<Fixtures["accounts"][number], "deliveries"> = {}): Fixtures {
  const [acme, globex] = testFixtures().accounts;
  return {
    accounts: [
      { ...acme!, connections: [WAREHOUSE, LAKE, CRM, ADS], ...extra },
      { ...globex!, connections: [{ id: 901, name: "globex-db", type: "postgres" }] },
    ],
  };
}

const track = closedAfterEach();

async function start(extra: Parameters<typeof fixtures>[0] = {}, speed = SPEED): Promise<RunningEmulator> {
  return track(await startEmulator({ port: 0, speed, creditsPerHour: 1_000_000, fixtures: fixtures(extra) }));
}

function body(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    source: { connection: { id: 306, type: "crm_platform" }, properties: { object: "Contact" } },
    destination: { connection: { id: 301, type: "postgres" }, properties: { schema_name: "crm" } },
    ...fields,
  };
}

async function create(emulator: RunningEmulator, fields: Record<string, unknown> = {}, key = DANA_KEY): Promise<ApiRecord> {
  const response = await call(emulator, "/deliveries", { method: "POST", body: body(fields), key });
  expect(response.status, JSON.stringify(await response.clone().json())).toBe(201);
  return readJson(response);
}

async function read(emulator: RunningEmulator, path: string, key = DANA_KEY): Promise<any> {
  const response = await call(emulator, path, { key });
  expect(response.status).toBe(200);
  return readJson(response);
}

const after = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();

async function jobsOf(emulator: RunningEmulator, deliveryId: number): Promise<ApiRecord[]> {
  const jobs = (await read(emulator, "/jobs?limit=100&direction=asc")) as ApiRecord[];
  return jobs.filter((job) => job.creator.type === "Delivery" && job.creator.id === deliveryId);
}

describe("POST /deliveries", () => {
  it("answers 201 with an idle delivery, its defaults and the destination's schema read as schema", async () => {
    const emulator = await start({}, 1);
    const created = await create(emulator);
    expectOnlyFields(created, DELIVERY_FIELDS);
    expect(created).toMatchObject({
      name: "Delivery from crm to warehouse",
      description: "",
      status: "idle",
      status_message: null,
      interval_amount: 1,
      interval_unit: "days",
      source: { connection: { id: 306, type: "crm_platform" }, properties: { object: "Contact" } },
      destination: { connection: { id: 301, type: "postgres" }, properties: { schema: "crm" } },
      package_id: null,
      last_run_at: null,
      next_run_at: null,
      owner_id: 1,
      url: `${emulator.url}/${ACCOUNT}/api/deliveries/${created.id}`,
      html_url: `${emulator.url}/${ACCOUNT}/deliveries/${created.id}`,
    });
    expect(await read(emulator, `/deliveries/${created.id}`)).toEqual(created);
  });

  it("takes a name, a description and an interval; the type of a connection may be left out", async () => {
    const emulator = await start({}, 1);
    const source = { connection: { id: 301 }, properties: { table: "orders" } };
    const created = await create(emulator, { name: "orders to lake", description: "nightly", interval_amount: 6, interval_unit: "hours", source, destination: { connection: { id: 302 } } });
    expect(created).toMatchObject({ name: "orders to lake", description: "nightly", interval_amount: 6, interval_unit: "hours" });
    expect(created.source).toEqual({ connection: { id: 301, type: "postgres" }, properties: { table: "orders" } });
    expect(created.destination).toEqual({ connection: { id: 302, type: "s3" }, properties: {} });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["no source", { source: undefined }, "source is required"],
    ["an unknown connection", { source: { connection: { id: 999 } } }, "source.connection.id 999 does not name a connection of this account"],
    ["another account's connection", { destination: { connection: { id: 901 } } }, "destination.connection.id 901 does not name a connection of this account"],
    ["a type that is not the connection's", { source: { connection: { id: 306, type: "salesforce" } } }, "source.connection.id names a crm_platform connection, not salesforce"],
    [
      "a destination that cannot be written",
      { destination: { connection: { id: 305, type: "ads_platform" } } },
      "destination.connection.id is a ads_platform connection, which cannot be written to: a destination must be a database or cloud storage connection",
    ],
    ["an interval of zero", { interval_amount: 0 }, "interval_amount must be an integer of at least 1"],
    ["a fractional interval", { interval_amount: 1.5 }, "interval_amount must be an integer"],
    ["an unknown unit", { interval_unit: "years" }, "interval_unit must be one of minutes, hours, days, weeks, months"],
    ["a blank name", { name: " " }, "name must not be blank"],
    ["an unknown field", { status: "enabled" }, "status is not a known field"],
    ["two spellings of the schema that differ", { destination: { connection: { id: 301 }, properties: { schema_name: "a", schema: "b" } } }, "destination.properties.schema_name and destination.properties.schema must not differ: they name the same schema"],
  ])("answers 422 naming the field for %s", async (_, fields, message) => {
    const emulator = await start({}, 1);
    await expectError(await call(emulator, "/deliveries", { method: "POST", body: body(fields) }), 422, message);
    expect(await read(emulator, "/deliveries")).toEqual([]);
  });
});

describe("a delivery's lifecycle", () => {
  it("is enabled after its set-up, makes its pipeline and runs a job of it every interval, started by the delivery", async () => {
    const emulator = await start();
    const created = await create(emulator, { name: "crm every minute", interval_unit: "minutes" });
    const enabledAt = after(created.created_at, SETUP_MS);
    const running = await until(() => read(emulator, `/deliveries/${created.id}`), (d) => d.last_run_at !== null && d.next_run_at > after(enabledAt, 2 * MINUTE_MS));
    expect(running).toMatchObject({ status: "enabled", status_message: null, updated_at: enabledAt });
    expect(running.next_run_at).toBe(after(running.last_run_at, MINUTE_MS));

    const pipeline = await read(emulator, `/packages/${running.package_id}`);
    expect(pipeline).toMatchObject({ status: "active", flow_type: "dataflow" });

    const jobs = await jobsOf(emulator, created.id);
    expect(jobs.length).toBeGreaterThanOrEqual(3);
    expect(jobs.slice(0, 3).map((job) => job.created_at)).toEqual([0, 1, 2].map((k) => after(enabledAt, k * MINUTE_MS)));
    for (const job of jobs) {
      expect(job.package_id).toBe(running.package_id);
      expect(job.creator).toEqual({
        type: "Delivery",
        id: created.id,
        display_name: "crm every minute",
        url: `${emulator.url}/${ACCOUNT}/api/deliveries/${created.id}`,
        html_url: `${emulator.url}/${ACCOUNT}/deliveries/${created.id}`,
      });
    }
    // Every run goes to the cluster the delivery made for itself while it lives.
    expect(new Set(jobs.map((job) => job.cluster_id)).size).toBe(1);
    const done = await until(() => read(emulator, `/jobs/${jobs[0]!.id}`), (job) => job.status === "completed" || job.status === "failed");
    expect(done.status).toBe("completed");
  });

  it("is disabled, naming the connection, when a connection it uses is deleted, and runs nothing more", async () => {
    const emulator = await start();
    const created = await create(emulator, { interval_unit: "minutes" });
    await until(() => read(emulator, `/deliveries/${created.id}`), (d) => d.last_run_at !== null);
    const deleted = await call(emulator, "/connections/crm_platform/306", { method: "DELETE" });
    expect(deleted.status).toBe(200);
    const disabled = await read(emulator, `/deliveries/${created.id}`);
    expect(disabled).toMatchObject({ status: "disabled", status_message: 'its source connection 306 ("crm") was deleted', next_run_at: null });
    const jobs = (await jobsOf(emulator, created.id)).length;
    await new Promise((resolve) => setTimeout(resolve, 3 * MINUTE_MS));
    expect(await jobsOf(emulator, created.id)).toHaveLength(jobs);
    expect((await read(emulator, `/deliveries/${created.id}`)).status).toBe("disabled");
  });

  it("stays idle, and runs nothing, until its set-up is done", async () => {
    const emulator = await start({}, 1);
    const created = await create(emulator, { interval_unit: "minutes" });
    expect((await read(emulator, `/deliveries/${created.id}`)).status).toBe("idle");
    expect(await jobsOf(emulator, created.id)).toEqual([]);
  });
});

describe("DELETE /deliveries/{id}", () => {
  it("answers 200 with the delivery as it was, forgets it and archives its pipeline", async () => {
    const emulator = await start();
    const created = await create(emulator);
    const enabled = await until(() => read(emulator, `/deliveries/${created.id}`), (d) => d.status === "enabled");
    const response = await call(emulator, `/deliveries/${created.id}`, { method: "DELETE" });
    expect(response.status).toBe(200);
    expect((await readJson(response)).id).toBe(created.id);
    await expectError(await call(emulator, `/deliveries/${created.id}`), 404);
    await expectError(await call(emulator, `/deliveries/${created.id}`, { method: "DELETE" }), 404);
    expect((await read(emulator, `/packages/${enabled.package_id}`)).status).toBe("archived");
  });

  it("has no update: a PUT is answered 405", async () => {
    const emulator = await start({}, 1);
    const created = await create(emulator);
    const response = await call(emulator, `/deliveries/${created.id}`, { method: "PUT", body: { name: "renamed" } });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, DELETE");
  });
});

describe("GET /deliveries", () => {
  it("filters by status, sorts, pages and keeps to the caller's account", async () => {
    const disabled = { status: "disabled" as const, statusMessage: "paused by support", source: { connectionId: 301 }, destination: { connectionId: 302 } };
    const emulator = await start({ deliveries: [{ id: 40, ...disabled }] }, 1);
    const [a, b] = [await create(emulator), await create(emulator, {}, LEE_KEY)];
    const ids = async (query: string) => ((await read(emulator, `/deliveries?${query}`)) as ApiRecord[]).map((d) => d.id);
    // Newest first unless asked otherwise.
    expect(await ids("status=idle")).toEqual([b.id, a.id]);
    expect(await ids("status=disabled")).toEqual([40]);
    expect(await ids("status=enabled")).toEqual([]);
    expect(await ids("status=all&sort=created&direction=desc")).toEqual([b.id, a.id, 40]);
    expect(await ids("sort=created&direction=asc&limit=1&offset=1")).toEqual([a.id]);
    expect(await ids(`since=${encodeURIComponent(b.updated_at)}`)).toContain(b.id);
    expect(await read(emulator, "/deliveries/40")).toMatchObject({ status: "disabled", status_message: "paused by support", name: "Delivery from warehouse to lake" });
    const globex = await call(emulator, "/deliveries", { key: OTHER_KEY, account: OTHER_ACCOUNT });
    expect(await readJson(globex)).toEqual([]);
    await expectError(await call(emulator, `/deliveries/${a.id}`, { key: OTHER_KEY, account: OTHER_ACCOUNT }), 404);
    await expectError(await call(emulator, "/deliveries?status=paused"), 400, "status must be all or one of idle, enabled, disabled");
    await expectError(await call(emulator, "/deliveries?sort=name"), 400, "sort must be one of created, updated");
  });
});

describe("fixtures", () => {
  it("refuse a delivery whose destination cannot be written", async () => {
    const bad = { source: { connectionId: 301 }, destination: { connectionId: 306 } };
    await expect(startEmulator({ port: 0, fixtures: fixtures({ deliveries: [bad] }) })).rejects.toThrow(
      /account acme-data: deliveries\[0\]\.destination\.connectionId: is a crm_platform connection, which cannot be written to/,
    );
  });

  it("start an enabled delivery with its pipeline, running from the start", async () => {
    const emulator = await start({ deliveries: [{ id: 41, status: "enabled", intervalUnit: "minutes", source: { connectionId: 306 }, destination: { connectionId: 302, properties: { schema_name: "raw" } } }] });
    const seen = await until(() => read(emulator, "/deliveries/41"), (d) => d.last_run_at !== null);
    expect(seen).toMatchObject({ status: "enabled", destination: { properties: { schema: "raw" } } });
    expect(seen.package_id).not.toBeNull();
    expect((await jobsOf(emulator, 41)).length).toBeGreaterThanOrEqual(1);
  });
});

describe("the account's counters", () => {
  it("count the deliveries, and the pipeline among the active packages once it is made", async () => {
    const emulator = await start();
    const account = async () => (await fetchAsIs(`${emulator.url}/accounts/${ACCOUNT}`)).json() as Promise<ApiRecord>;
    expect(await account()).toMatchObject({ deliveries_count: 0, packages_count: 0 });
    const created = await create(emulator);
    expect(await account()).toMatchObject({ deliveries_count: 1, packages_count: 0 });
    await until(() => read(emulator, `/deliveries/${created.id}`), (delivery) => delivery.status === "enabled");
    expect(await account()).toMatchObject({ deliveries_count: 1, packages_count: 1 });
  });
});
