import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Fixtures, type RunningEmulator } from "../../../emulator";
import { call, expectError, OTHER_ACCOUNT, OTHER_KEY, readJson, testFixtures } from "../helpers";

/**
 * Packages made through the API (facts, "Packages" and "Package validations"): create, update,
 * archive, export and post back, templates, copies, validations by the flow's rules, and jobs
 * that run the flow.
 */

const WAREHOUSE = 301;
const BUCKET = 302;
const CRM = 303;
const BROKEN_DB = 304;

function fixtures(): Fixtures {
  const [acme, globex] = testFixtures().accounts;
  return {
    accounts: [
      {
        ...acme!,
        clusters: [{ id: 1, name: "sandbox" }],
        connections: [
          {
            id: WAREHOUSE,
            name: "warehouse",
            type: "postgres",
            attributes: { host: "db.example.com", database: "analytics", username: "etl", password: "fine" },
          },
          { id: BUCKET, name: "lake", type: "s3" },
          { id: CRM, name: "crm", type: "salesforce" },
          { id: BROKEN_DB, name: "gone-host", type: "postgres", attributes: { host: "db.invalid", database: "x", username: "etl", password: "fine" } },
        ],
      },
      { ...globex!, connections: [{ id: 901, name: "their warehouse", type: "postgres" }] },
    ],
  };
}

/** Orders from the CRM, filtered by a variable, into the warehouse and the lake. */
function flow(source = CRM, destination = WAREHOUSE) {
  return {
    components: [
      { name: "orders", type: "source", connection: { id: source }, path: "Opportunity" },
      { name: "recent", type: "filter", condition: "closed_at > '${since}'" },
      { name: "columns", type: "select", fields: ["id", "amount"] },
      { name: "warehouse", type: "destination", connection: { id: destination }, table: "recent_orders" },
      { name: "lake", type: "destination", connection: { id: BUCKET }, path: "exports/orders" },
    ],
    edges: [
      { from: "orders", to: "recent" },
      { from: "recent", to: "columns" },
      { from: "columns", to: "warehouse" },
      { from: "recent", to: "lake" },
    ],
  };
}

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, fixtures: fixtures(), speed: 500 });
});

afterAll(() => emulator.close());

async function expectStatus(response: Response, status: number): Promise<any> {
  const body = await readJson(response);
  expect(response.status, JSON.stringify(body)).toBe(status);
  return body;
}

/** As Dana in acme-data, or as Olu in globex. */
const AS_OLU = { key: OTHER_KEY, account: OTHER_ACCOUNT };

function create(body: unknown, as: { key?: string; account?: string } = {}): Promise<any> {
  return call(emulator, "/packages", { method: "POST", body, ...as }).then((r) => expectStatus(r, 201));
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("POST /packages", () => {
  it("creates 201 with the service's defaults, version 1 and an item", async () => {
    const pkg = await create({ data_flow_json: flow(), variables: { since: "2026-01-01" } });
    expect(pkg).toMatchObject({
      name: "Untitled package",
      flow_type: "dataflow",
      status: "active",
      version: 1,
      flow_version: "2.0.0",
      package_version: "1.0",
      owner_id: 1,
    });
    expect(pkg.item_id).toEqual(expect.any(String));
  });

  it("takes the flow as JSON text too", async () => {
    const pkg = await create({ name: "as text", data_flow_json: JSON.stringify(flow()), variables: { since: "x" } });
    const exported = await expectStatus(await call(emulator, `/packages/${pkg.id}/export`), 200);
    expect(exported.data_flow_json).toEqual(flow());
  });

  it.each<[string, Record<string, unknown>, string | RegExp]>([
    [
      "a component of an unknown type",
      { data_flow_json: { components: [{ name: "a", type: "pivot" }] } },
      /data_flow_json\.components\[0\]\.type must be one of source/,
    ],
    [
      "a misspelt field of a component",
      { data_flow_json: { components: [{ name: "a", type: "source", conection: { id: 1 } }] } },
      "data_flow_json.components[0].conection is not a known field",
    ],
    ["JSON text that is not JSON", { data_flow_json: "{components" }, /data_flow_json must be a JSON object, or JSON text of one/],
    ["an unknown flow type", { flow_type: "graph" }, /flow_type must be one of dataflow, workflow/],
    ["a copy of a package of another account", { source_package_id: 999 }, "source_package_id 999 does not name a package of this account"],
    ["an unknown template", { package_template_id: 77 }, /package_template_id 77 does not name a template/],
  ])("refuses %s with 422 naming the field", async (_what, body, message) => {
    await expectError(await call(emulator, "/packages", { method: "POST", body }), 422, message);
  });

  it("accepts a flow that uses a missing connection: its validation fails", async () => {
    const pkg = await create({ name: "dangling", data_flow_json: flow(CRM, 9999), variables: { since: "x" } });
    const validation = await expectStatus(await call(emulator, `/packages/${pkg.id}/validate`, { method: "POST" }), 200);
    expect(validation).toMatchObject({ status: "failed", package_id: pkg.id });
    expect(validation.errors).toEqual([
      expect.objectContaining({ component: "warehouse", rule: "connection-exists", message: expect.stringContaining("9999") }),
    ]);
  });
});

describe("PUT, GET with a version, DELETE", () => {
  it("increments the version on each update and answers an older version when asked", async () => {
    const pkg = await create({ name: "v", data_flow_json: flow(), variables: { since: "a" } });
    const updated = await expectStatus(
      await call(emulator, `/packages/${pkg.id}`, { method: "PUT", body: { description: "second", package_version: "1.1" } }),
      200,
    );
    expect(updated).toMatchObject({ version: 2, description: "second", package_version: "1.1" });
    expect(await expectStatus(await call(emulator, `/packages/${pkg.id}?version=1`), 200)).toMatchObject({ version: 1, description: "" });
    expect(await expectStatus(await call(emulator, `/packages/${pkg.id}?package_version=1.1`), 200)).toMatchObject({ version: 2 });
    expect(await expectStatus(await call(emulator, `/packages/${pkg.id}?item_id=${pkg.item_id}`), 200)).toMatchObject({ version: 2 });
    await expectError(await call(emulator, `/packages/${pkg.id}?version=9`), 404, "Item not found.");
    await expectError(await call(emulator, `/packages/${pkg.id}?item_id=other`), 404, "Item not found.");
  });

  it("refuses a change of flow type, but takes the same one as an export document holds it", async () => {
    const pkg = await create({ name: "typed", data_flow_json: flow(), variables: { since: "a" } });
    await expectError(
      await call(emulator, `/packages/${pkg.id}`, { method: "PUT", body: { flow_type: "workflow" } }),
      422,
      "flow_type cannot be changed (it is dataflow)",
    );
    await expectStatus(await call(emulator, `/packages/${pkg.id}`, { method: "PUT", body: { flow_type: "dataflow" } }), 200);
  });

  it("archives on delete: 200, still readable, listed as archived, no longer changed or validated", async () => {
    const pkg = await create({ name: "to archive" });
    expect(await expectStatus(await call(emulator, `/packages/${pkg.id}`, { method: "DELETE" }), 200)).toMatchObject({ id: pkg.id, status: "archived" });
    expect(await expectStatus(await call(emulator, `/packages/${pkg.id}`), 200)).toMatchObject({ status: "archived" });
    const archived = (await expectStatus(await call(emulator, "/packages?status=archived&limit=100"), 200)) as { id: number }[];
    expect(archived.map((p) => p.id)).toContain(pkg.id);
    await expectError(await call(emulator, `/packages/${pkg.id}`, { method: "PUT", body: { name: "x" } }), 422, /is archived and cannot be changed/);
    await expectError(await call(emulator, `/packages/${pkg.id}/validate`, { method: "POST" }), 422, /only active packages can be validated/);
  });
});

describe("export, copies and templates", () => {
  it("exports a document that, posted as-is to another account, makes the same package there", async () => {
    const pkg = await create({ name: "promoted", description: "d", data_flow_json: flow(), variables: { since: "a" } });
    const document = await expectStatus(await call(emulator, `/packages/${pkg.id}/export`), 200);
    const copy = await create(document, AS_OLU);
    expect(copy).toMatchObject({ name: "promoted", description: "d", variables: { since: "a" }, flow_type: "dataflow" });
    expect(copy.id).not.toBe(pkg.id);
    expect(await expectStatus(await call(emulator, `/packages/${copy.id}/export`, AS_OLU), 200)).toEqual(document);
  });

  it("copies a package with source_package_id, the body's fields winning", async () => {
    const pkg = await create({ name: "original", data_flow_json: flow(), variables: { since: "a" } });
    const copy = await create({ source_package_id: pkg.id, description: "mine" });
    expect(copy).toMatchObject({ name: "Copy of original", description: "mine", variables: { since: "a" } });
  });

  it("lists templates, and a package from one validates once its slots name connections of the account", async () => {
    const templates = await expectStatus(await call(emulator, "/packages/templates"), 200);
    expect(templates[0]).toEqual({
      id: 1,
      name: "Copy a table",
      description: expect.any(String),
      position: 1,
      author: expect.objectContaining({ name: expect.any(String) }),
    });
    const pkg = await create({ package_template_id: 1 });
    const before = await expectStatus(await call(emulator, `/packages/${pkg.id}/validate`, { method: "POST" }), 200);
    expect(before.errors.map((e: { rule: string }) => e.rule)).toEqual(["connection", "connection"]);
    const document = await expectStatus(await call(emulator, `/packages/${pkg.id}/export`), 200);
    const [source, destination] = document.data_flow_json.components;
    const named = {
      ...document.data_flow_json,
      components: [
        { ...source, connection: { id: WAREHOUSE } },
        { ...destination, connection: { id: BUCKET } },
      ],
    };
    await expectStatus(await call(emulator, `/packages/${pkg.id}`, { method: "PUT", body: { data_flow_json: named } }), 200);
    expect(await expectStatus(await call(emulator, `/packages/${pkg.id}/validate`, { method: "POST" }), 200)).toMatchObject({
      status: "completed",
      errors: [],
    });
  });

  it("finds packages by search", async () => {
    await create({ name: "needle in a haystack" });
    const found = await expectStatus(await call(emulator, "/packages/search?q=name:needle"), 200);
    expect(found.map((p: { name: string }) => p.name)).toEqual(["needle in a haystack"]);
  });
});

describe("validations by the flow's rules", () => {
  it("runs asynchronously: 201 running, then failed with each rule named, listed by status", async () => {
    const broken = { ...flow(CRM, CRM), edges: [...flow().edges, { from: "lake", to: "nowhere" }] };
    const pkg = await create({ name: "broken", data_flow_json: broken });
    const created = await expectStatus(await call(emulator, `/packages/${pkg.id}/validations`, { method: "POST" }), 201);
    expect(created).toMatchObject({ status: "running", errors: [], status_message: null });
    const ended = await until(
      () => call(emulator, `/packages/${pkg.id}/validations/${created.id}`).then(readJson),
      (v: any) => v.status !== "running",
    );
    expect(ended.status).toBe("failed");
    expect(ended.errors.map((e: { rule: string; component?: string }) => `${e.rule}:${e.component}`).sort()).toEqual(
      ["connected:lake", "connection-role:warehouse", "edges-connect-components:nowhere", "variables-defined:recent"].sort(),
    );
    expect(ended.status_message).toBe(ended.errors[0].message);
    const failed = await expectStatus(await call(emulator, `/packages/${pkg.id}/validations?status=failed`), 200);
    expect(failed.map((v: { id: number }) => v.id)).toEqual([created.id]);
    expect(await expectStatus(await call(emulator, `/packages/${pkg.id}/validations?status=completed`), 200)).toEqual([]);
  });
});

describe("jobs of a package with a flow", () => {
  async function runJob(packageId: number): Promise<any> {
    const job = await expectStatus(await call(emulator, "/jobs", { method: "POST", body: { cluster_id: 1, package_id: packageId } }), 201);
    return until(
      () => call(emulator, `/jobs/${job.id}`).then(readJson),
      (j: { status: string }) => j.status === "completed" || j.status === "failed",
    );
  }

  it("completes with one output per destination, records derived from the flow", async () => {
    const pkg = await create({ name: "runs", data_flow_json: flow(), variables: { since: "2026-01-01" } });
    const job = await runJob(pkg.id);
    expect(job.status).toBe("completed");
    const outputs = job.outputs.map((o: { name: string; records_count: number; component: { name: string; fields: string[] } }) => [
      o.component.name,
      o.name,
      o.records_count,
      o.component.fields,
    ]);
    expect(outputs).toEqual([
      ["warehouse", "recent_orders", 500, ["id", "amount"]],
      ["lake", "exports/orders", 500, []],
    ]);
  });

  it("fails with a clear error when a connection's test fails", async () => {
    const pkg = await create({ name: "unreachable", data_flow_json: flow(CRM, BROKEN_DB), variables: { since: "x" } });
    const job = await runJob(pkg.id);
    expect(job.status).toBe("failed");
    expect(job.errors).toBe('destination "warehouse" cannot use connection 304: Could not connect to db.invalid:5432: host not found');
  });

  it("fails when a connection it uses has been deleted, which moves its updated_at in its GET as in the listing", async () => {
    const pkg = await create({ name: "loses its lake", data_flow_json: flow(), variables: { since: "x" } });
    await expectStatus(await call(emulator, `/connections/s3/${BUCKET}`, { method: "DELETE" }), 200);
    const read = await expectStatus(await call(emulator, `/packages/${pkg.id}`), 200);
    const listed = (await expectStatus(await call(emulator, "/packages?sort=created&direction=desc&limit=10"), 200)).find(
      (item: { id: number }) => item.id === pkg.id,
    );
    expect(read.updated_at > pkg.updated_at).toBe(true);
    expect(listed.updated_at).toBe(read.updated_at);
    const job = await runJob(pkg.id);
    expect(job.status).toBe("failed");
    expect(job.errors).toMatch(/destination "lake" uses connection 302, which is not in the account/);
  });
});

it("keeps to the account: another account's key finds nothing", async () => {
  const pkg = await create({ name: "private" });
  await expectError(await call(emulator, `/packages/${pkg.id}`, AS_OLU), 404, "Item not found.");
});
