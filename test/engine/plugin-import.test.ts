/**
 * Bringing objects under the plugin: `pulumi import` of a schedule and a connection made out of
 * band (code generation off), after which a program declaring them previews empty; `pulumi
 * import` run as a user runs it, of one object of every kind, with no warning, since the inputs
 * the service never returns (a password, a key's line) are not missing inputs; and a stack of
 * dynamic resources moved to the plugin with `aliases`, keeping every id and writing nothing.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as pulumi from "@pulumi/pulumi";
import { Connection, PublicKey, Schedule } from "pulumi-etl";
import { RESOURCE_KINDS, type ResourceKind } from "pulumi-etl/plugin";
import { createCliProject, type CliProject, type DeclaredResource } from "../support/cli";
import { referenceExample } from "../kinds/kind-tests";
import { createTestStack, type TestStack } from "../support/engine";
import { ed25519PublicKeyLine } from "../support/keys";
import { pluginResource } from "../support/plugin";
import { startTestEmulator, type Emulator } from "../support/service";
import { filesUnder } from "../support/soak";

const PACKAGE = { id: 101, name: "orders-rollup", run: { seconds: 5 } };
const CLUSTER = { id: 201, name: "ready", nodes: 4 };
const PASSWORD = "imported-SECRET-pw-2236";
const SCHEDULE = {
  name: "made-by-hand",
  interval: { amount: 2, unit: "hours" },
  task: { nodes: 2, packages: [{ packageId: "101", variables: { region: "'eu'" } }] },
};
const WAREHOUSE = { type: "postgres", name: "hand-made-warehouse", host: "db.example.com", username: "etl", password: PASSWORD, database: "analytics" };

describe("pulumi import through the plugin", { timeout: 240_000 }, () => {
  let service: Emulator;
  let test: TestStack;
  let declared = false;
  const ids = { schedule: "", connection: "" };
  const cliOutput: string[] = [];
  const onOutput = (text: string) => cliOutput.push(text);

  beforeAll(async () => {
    service = await startTestEmulator({ account: { packages: [PACKAGE], clusters: [CLUSTER] } });
    const schedule = await service.api("POST", "/schedules", {
      name: SCHEDULE.name,
      status: "enabled",
      interval_amount: 2,
      interval_unit: "hours",
      task: { nodes: 2, packages: [{ package_id: 101, variables: { region: "'eu'" } }] },
    });
    expect(schedule.status).toBe(201);
    const connection = await service.api("POST", "/connections/postgres", {
      name: WAREHOUSE.name,
      host: WAREHOUSE.host,
      username: "etl",
      password: PASSWORD,
      database: "analytics",
    });
    expect(connection.status).toBe(201);
    ids.schedule = String(schedule.body.id);
    ids.connection = String(connection.body.id);
    test = await createTestStack(
      "plugin-import",
      async () => {
        if (!declared) return {};
        const opts = { protect: true };
        pluginResource("Schedule", "nightly", SCHEDULE, opts);
        pluginResource("Connection", "warehouse", { ...WAREHOUSE, password: pulumi.secret(PASSWORD) }, opts);
        return {};
      },
      service,
      {},
      { plugin: true },
    );
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("imports both by id alone, writing nothing to the service", async () => {
    await service.resetRequests();
    await test.stack.import({
      resources: [
        { type: "etl:index:Schedule", name: "nightly", id: ids.schedule },
        { type: "etl:index:Connection", name: "warehouse", id: ids.connection },
      ],
      generateCode: false,
      onOutput,
    });
    expect(await service.writeRequests()).toEqual([]);
    const resources = (await test.stack.exportStack()).deployment.resources ?? [];
    const imported = resources.filter((r: any) => r.type.startsWith("etl:index:"));
    // The engine imports the two side by side: the state holds them in either order.
    expect(imported.map((r: any) => [r.type, r.id, r.protect]).sort()).toEqual([
      ["etl:index:Connection", ids.connection, true],
      ["etl:index:Schedule", ids.schedule, true],
    ]);
    const ofType = (type: string) => imported.find((r: any) => r.type === type);
    expect(ofType("etl:index:Schedule").inputs).toMatchObject({ name: SCHEDULE.name, interval: SCHEDULE.interval });
    expect(ofType("etl:index:Connection").inputs).toMatchObject({ type: "postgres", name: WAREHOUSE.name, host: WAREHOUSE.host });
  });

  it("a program declaring them previews empty, and refresh changes nothing", async () => {
    declared = true;
    await service.resetRequests();
    const preview = await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(preview.changeSummary).toEqual({ same: 3 });
    // A refresh that changes nothing leaves the state the preview above read.
    await test.stack.refresh({ expectNoChanges: true, onOutput });
    expect(await service.writeRequests()).toEqual([]);
    for (const file of filesUnder(test.workDir)) expect(readFileSync(file, "latin1")).not.toContain(PASSWORD);
    expect(cliOutput.join("")).not.toContain(PASSWORD);
  });
});

/** The records the kinds' reference examples name by id (connections 301, 302, 306; package 101; cluster 201). */
const EXAMPLES_ACCOUNT = {
  packages: [{ id: 101, name: "orders-rollup", run: { seconds: 2 } }],
  clusters: [{ id: 201, name: "shared", nodes: 4 }],
  connections: [
    { id: 301, name: "orders-db", type: "postgres", attributes: { host: "db.example.com", database: "analytics", username: "etl", password: PASSWORD } },
    {
      id: 302,
      name: "warehouse",
      type: "redshift",
      attributes: { host: "rs.example.com", database: "analytics", username: "etl", password: PASSWORD, region: "us-east-1" },
    },
    { id: 306, name: "crm", type: "salesforce", crmObjects: [{ name: "Contact" }] },
  ],
};

/** A kind's example inputs with each `{ secretConfig }` given a value, made secret by `wrap`. */
function exampleInputs(kind: ResourceKind, wrap: (value: string) => unknown = (value) => value): Record<string, unknown> {
  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value === null || typeof value !== "object") return value;
    if (typeof (value as { secretConfig?: unknown }).secretConfig === "string") return wrap(PASSWORD);
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, resolve(item)]));
  };
  return resolve(referenceExample(kind)) as Record<string, unknown>;
}

const nameOf = (kind: ResourceKind) => kind.toLowerCase();

describe("`pulumi import` of one object of every kind, as a user runs it", { timeout: 480_000 }, () => {
  let service: Emulator;
  let maker: TestStack;
  let project: CliProject;
  const ids = {} as Record<ResourceKind, string>;

  beforeAll(async () => {
    service = await startTestEmulator({ account: EXAMPLES_ACCOUNT, speed: 20 });
    // Made elsewhere: by another stack, from each kind's reference example.
    maker = await createTestStack(
      "import-every-kind-maker",
      async () => Object.fromEntries(RESOURCE_KINDS.map((kind) => [kind, pluginResource(kind, nameOf(kind), exampleInputs(kind, pulumi.secret)).id])),
      service,
      {},
      { plugin: true },
    );
    const made = await maker.stack.up();
    for (const kind of RESOURCE_KINDS) ids[kind] = String(made.outputs[kind]!.value);
    project = await createCliProject("import-every-kind", service, {}, { surface: "plugin" });
  });

  afterAll(async () => {
    maker?.dispose();
    project?.dispose();
    await service?.emulator.close();
  });

  it("imports each with no warning and no write to the service", async () => {
    const imports = RESOURCE_KINDS.map((kind) => ({ type: `etl:index:${kind}`, name: nameOf(kind), id: ids[kind] }));
    writeFileSync(path.join(project.dir, "imports.json"), JSON.stringify({ resources: imports }));
    await service.resetRequests();
    const { code, output } = await project.runToEnd(["import", "--file", "imports.json", "--yes", "--protect=false", "--generate-code=false"]);
    expect(output).not.toMatch(/failed to validate|warning/i);
    expect(code, output).toBe(0);
    expect(await service.writeRequests()).toEqual([]);
    const types = ((await project.stack.exportStack()).deployment.resources ?? [])
      .map((r: any) => r.type)
      .filter((type: string) => type.startsWith("etl:index:"));
    expect(types.sort()).toEqual(RESOURCE_KINDS.map((kind) => `etl:index:${kind}`).sort());
  });

  it("a program declaring them as their examples do previews no change", async () => {
    const declared: DeclaredResource[] = RESOURCE_KINDS.map((kind) => ({ kind, name: nameOf(kind), args: exampleInputs(kind) }));
    await project.declare(declared);
    const { code, output } = await project.runToEnd(["preview", "--expect-no-changes", "--diff"]);
    expect(code, output).toBe(0);
    expect(output).not.toMatch(/failed to validate|warning/i);
    expect(await service.writeRequests()).toEqual([]);
  });

  it("a program that leaves out a required secret still fails its check, naming it", async () => {
    const { password: _left, ...withoutPassword } = exampleInputs("Connection");
    await project.declare([{ kind: "Connection", name: nameOf("Connection"), args: withoutPassword }]);
    const { code, output } = await project.runToEnd(["preview"]);
    expect(code).not.toBe(0);
    expect(output).toContain("password is required");
  });
});

describe("a dynamic stack moved to the plugin with aliases", { timeout: 240_000 }, () => {
  let service: Emulator;
  let test: TestStack;
  let onPlugin = false;
  const key = ed25519PublicKeyLine("moved@example.com");

  beforeAll(async () => {
    service = await startTestEmulator({ account: { packages: [PACKAGE], clusters: [CLUSTER] } });
    test = await createTestStack(
      "plugin-migration",
      async () => {
        const args = {
          key: { publicKey: key.line, name: "moved" },
          warehouse: { ...WAREHOUSE, name: "moved-warehouse", password: pulumi.secret(PASSWORD) },
          schedule: { ...SCHEDULE, name: "moved-schedule" },
        };
        if (!onPlugin) {
          const made = [new PublicKey("key", args.key), new Connection("warehouse", args.warehouse as any), new Schedule("schedule", args.schedule as any)];
          return { ids: made.map((resource) => resource.id) };
        }
        const from = (kind: string) => ({ aliases: [{ type: `pulumi-nodejs:dynamic/etl:${kind}` }] });
        const moved = [
          pluginResource("PublicKey", "key", args.key, from("PublicKey")),
          pluginResource("Connection", "warehouse", args.warehouse, from("Connection")),
          pluginResource("Schedule", "schedule", args.schedule, from("Schedule")),
        ];
        return { ids: moved.map((resource) => resource.id) };
      },
      service,
      {},
      { plugin: true },
    );
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("keeps every id and makes no write to the service", async () => {
    const before = (await test.stack.up()).outputs.ids!.value as string[];
    onPlugin = true;
    await service.resetRequests();
    const moved = await test.stack.up();
    expect(moved.outputs.ids!.value).toEqual(before);
    expect(moved.summary.resourceChanges).not.toHaveProperty("create");
    expect(moved.summary.resourceChanges).not.toHaveProperty("delete");
    expect(await service.writeRequests()).toEqual([]);
    const types = ((await test.stack.exportStack()).deployment.resources ?? []).map((r: any) => r.type);
    expect(types.filter((type: string) => type.startsWith("pulumi-nodejs:dynamic"))).toEqual([]);
    await test.stack.preview({ expectNoChanges: true });
    await test.stack.destroy();
    const account = (await service.state()).accounts[0];
    expect([account.publicKeys.length, account.schedules.length, account.connections.length]).toEqual([0, 0, 0]);
  });
});
