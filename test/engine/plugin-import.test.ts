/**
 * Bringing objects under the plugin: `pulumi import` of a schedule and a connection made out of
 * band (code generation off), after which a program declaring them previews empty; and a stack of
 * dynamic resources moved to the plugin with `aliases`, keeping every id and writing nothing.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as pulumi from "@pulumi/pulumi";
import { Connection, PublicKey, Schedule } from "pulumi-etl";
import { createTestStack, type TestStack } from "../support/engine";
import { ed25519PublicKeyLine } from "../support/keys";
import { pluginResource } from "../support/plugin";
import { startLocalService, type LocalService } from "../support/service";
import { filesUnder } from "../support/soak";

const PACKAGE = { id: 101, name: "orders-rollup", run: { seconds: 5 } };
const CLUSTER = { id: 201, name: "ready", nodes: 4 };
const PASSWORD = "imported-SECRET-pw-2236";
const SCHEDULE = { name: "made-by-hand", interval: { amount: 2, unit: "hours" }, task: { nodes: 2, packages: [{ packageId: "101", variables: { region: "'eu'" } }] } };
const WAREHOUSE = { type: "postgres", name: "hand-made-warehouse", host: "db.example.com", username: "etl", password: PASSWORD, database: "analytics" };

describe("pulumi import through the plugin", { timeout: 240_000 }, () => {
  let service: LocalService;
  let test: TestStack;
  let declared = false;
  const ids = { schedule: "", connection: "" };
  const cliOutput: string[] = [];
  const onOutput = (text: string) => cliOutput.push(text);

  beforeAll(async () => {
    service = await startLocalService({ account: { packages: [PACKAGE], clusters: [CLUSTER] } });
    const schedule = await service.api("POST", "/schedules", {
      name: SCHEDULE.name,
      status: "enabled",
      interval_amount: 2,
      interval_unit: "hours",
      task: { nodes: 2, packages: [{ package_id: 101, variables: { region: "'eu'" } }] },
    });
    expect(schedule.status).toBe(201);
    const connection = await service.api("POST", "/connections/postgres", { name: WAREHOUSE.name, host: WAREHOUSE.host, username: "etl", password: PASSWORD, database: "analytics" });
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
    await test.stack.refresh({ expectNoChanges: true, onOutput });
    await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(await service.writeRequests()).toEqual([]);
    for (const file of filesUnder(test.workDir)) expect(readFileSync(file, "latin1")).not.toContain(PASSWORD);
    expect(cliOutput.join("")).not.toContain(PASSWORD);
  });
});

describe("a dynamic stack moved to the plugin with aliases", { timeout: 240_000 }, () => {
  let service: LocalService;
  let test: TestStack;
  let onPlugin = false;
  const key = ed25519PublicKeyLine("moved@example.com");

  beforeAll(async () => {
    service = await startLocalService({ account: { packages: [PACKAGE], clusters: [CLUSTER] } });
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
