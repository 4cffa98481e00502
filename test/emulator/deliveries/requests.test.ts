import { describe, expect, it } from "vitest";
import { ACCOUNT, call, expectError, expectOnlyFields, LEE_KEY, OTHER_ACCOUNT, OTHER_KEY, readJson, until, type ApiRecord } from "../helpers";
import { create, DELIVERY_FIELDS, deliveryServices, postDelivery, read } from "./helpers";

/** Deliveries through the API: creation and its rules, deletion, and the list. */

const start = deliveryServices();

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
    const created = await create(emulator, {
      name: "orders to lake",
      description: "nightly",
      interval_amount: 6,
      interval_unit: "hours",
      source,
      destination: { connection: { id: 302 } },
    });
    expect(created).toMatchObject({ name: "orders to lake", description: "nightly", interval_amount: 6, interval_unit: "hours" });
    expect(created.source).toEqual({ connection: { id: 301, type: "postgres" }, properties: { table: "orders" } });
    expect(created.destination).toEqual({ connection: { id: 302, type: "s3" }, properties: {} });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["no source", { source: undefined }, "source is required"],
    ["an unknown connection", { source: { connection: { id: 999 } } }, "source.connection.id 999 does not name a connection of this account"],
    ["another account's connection", { destination: { connection: { id: 901 } } }, "destination.connection.id 901 does not name a connection of this account"],
    [
      "a type that is not the connection's",
      { source: { connection: { id: 306, type: "salesforce" } } },
      "source.connection.id names a crm_platform connection, not salesforce",
    ],
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
    [
      "two spellings of the schema that differ",
      { destination: { connection: { id: 301 }, properties: { schema_name: "a", schema: "b" } } },
      "destination.properties.schema_name and destination.properties.schema must not differ: they name the same schema",
    ],
  ])("answers 422 naming the field for %s", async (_, fields, message) => {
    const emulator = await start({}, 1);
    await expectError(await postDelivery(emulator, fields), 422, message);
    expect(await read(emulator, "/deliveries")).toEqual([]);
  });
});

describe("DELETE /deliveries/{id}", () => {
  it("answers 200 with the delivery as it was, forgets it and archives its pipeline", async () => {
    const emulator = await start();
    const created = await create(emulator);
    const enabled = await until(
      () => read(emulator, `/deliveries/${created.id}`),
      (d) => d.status === "enabled",
    );
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
    expect(await read(emulator, "/deliveries/40")).toMatchObject({
      status: "disabled",
      status_message: "paused by support",
      name: "Delivery from warehouse to lake",
    });
    const globex = await call(emulator, "/deliveries", { key: OTHER_KEY, account: OTHER_ACCOUNT });
    expect(await readJson(globex)).toEqual([]);
    await expectError(await call(emulator, `/deliveries/${a.id}`, { key: OTHER_KEY, account: OTHER_ACCOUNT }), 404);
    await expectError(await call(emulator, "/deliveries?status=paused"), 400, "status must be all or one of idle, enabled, disabled");
    await expectError(await call(emulator, "/deliveries?sort=name"), 400, "sort must be one of created, updated");
  });
});
