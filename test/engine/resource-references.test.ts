/**
 * Resources given where an input takes one, on both surfaces through the real engine: a
 * ConnectionGroup and both ends of a Delivery take `Connection` resources, a Schedule a
 * `Package`, a JobRun a `Cluster`. A preview while they are still to be made, up, an unchanged
 * preview, destroy; and what a preview refuses: a resource of the wrong kind, and a connection
 * made in the same program whose type the input cannot take; on the plugin, a connection read
 * by its id, whose type the service gives.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as pulumi from "@pulumi/pulumi";
import type { EngineEvent, OutputMap } from "@pulumi/pulumi/automation";
import { createTestStack, failureOf, type TestStack } from "../support/engine";
import { startTestEmulator, type Emulator } from "../support/service";
import { pluginResource } from "../support/plugin";
import { declare, SURFACES, type Surface } from "../support/surfaces";

const PACKAGE = { id: 101, name: "orders-rollup", run: { seconds: 20, outputs: [{ name: "out", records: 10 }] } };
const EXISTING = {
  id: 301,
  name: "existing",
  type: "postgres",
  attributes: { username: "etl", password: "pw", host: "db.example.com", database: "analytics" },
};

/** What each step adds to the program: nothing, or one input given a resource it cannot take. */
type Variant = "references" | "package as a connection" | "new web connection in a group" | "connection read by id";

describe.each(SURFACES)("resources given as inputs, on the %s surface", { timeout: 300_000 }, (surface: Surface) => {
  let service: Emulator;
  let test: TestStack;
  let outputs: OutputMap;
  let variant: Variant = "references";
  const onOutput = (_text: string) => undefined;

  function program() {
    const warehouse = declare(surface, "Connection", "warehouse", {
      type: "postgres",
      name: "warehouse",
      host: "warehouse.db.example.com",
      username: "etl",
      password: pulumi.secret("warehouse-pw"),
      database: "analytics",
    });
    const bucket = declare(surface, "Connection", "bucket", { type: "s3", name: "bucket", username: "AKIAEXAMPLE", password: pulumi.secret("bucket-pw") });
    const group = declare(surface, "ConnectionGroup", "analytics", { name: `analytics-${surface}`, connections: [warehouse, bucket] });
    const delivery = declare(surface, "Delivery", "orders", {
      interval: { amount: 1, unit: "days" },
      source: { connection: warehouse, properties: { table: "orders" } },
      destination: { connection: bucket, properties: { path: "orders/" } },
    });
    const copy = declare(surface, "Package", "copy", {
      name: `copy orders ${surface}`,
      dataFlow: {
        components: [
          { name: "rows", type: "source", connection: { id: warehouse.id }, table: "orders" },
          { name: "copy", type: "destination", connection: { id: warehouse.id }, table: "orders_copy" },
        ],
        edges: [{ from: "rows", to: "copy" }],
      },
    });
    const nightly = declare(surface, "Schedule", "nightly", {
      name: `nightly-${surface}`,
      interval: { amount: 1, unit: "days" },
      task: { nodes: 2, packages: [{ packageId: copy }] },
    });
    const compute = declare(surface, "Cluster", "compute", { nodes: 1, name: `compute-${surface}` });
    const run = declare(surface, "JobRun", "backfill", { clusterId: compute, packageId: PACKAGE.id });
    if (variant === "package as a connection") declare(surface, "ConnectionGroup", "mixed", { name: "mixed", connections: [copy] });
    if (variant === "new web connection in a group") {
      const web = declare(surface, "Connection", "web", { type: "web_analytics", name: "web", password: pulumi.secret("web-token") });
      declare(surface, "ConnectionGroup", "web", { name: "web", connections: [web] });
    }
    if (variant === "connection read by id") {
      const existing = pluginResource("Connection", "existing", {}, { id: String(EXISTING.id) });
      declare(surface, "ConnectionGroup", "existing", { name: "existing", connections: [existing] });
    }
    return {
      warehouseId: warehouse.id,
      bucketId: bucket.id,
      groupId: group.id,
      deliverySource: delivery.source,
      deliveryDestination: delivery.destination,
      deliveryStatus: delivery.status,
      packageId: copy.id,
      scheduleTask: nightly.task,
      clusterId: compute.id,
      jobClusterId: run.clusterId,
      jobStatus: run.status,
    };
  }

  beforeAll(async () => {
    service = await startTestEmulator({ speed: 60, account: { packages: [PACKAGE], connections: [EXISTING] } });
    test = await createTestStack(`references-${surface}`, async () => program(), service, {}, { plugin: surface === "plugin" });
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("a preview while every resource is still to be made passes, and writes nothing", async () => {
    await service.resetRequests();
    const preview = await test.stack.preview({ onOutput });
    expect(preview.changeSummary).toMatchObject({ create: 9 });
    expect(await service.writeRequests()).toEqual([]);
  });

  it("up gives each input what the resource stands for there", async () => {
    outputs = (await test.stack.up({ onOutput })).outputs;
    const [warehouseId, bucketId] = [Number(outputs.warehouseId!.value), Number(outputs.bucketId!.value)];
    const group = (await service.api("GET", `/connection_groups/${outputs.groupId!.value}`)).body as { connections: Array<{ id: number }> };
    expect(group.connections.map((c) => c.id).sort()).toEqual([warehouseId, bucketId].sort());
    expect(outputs.deliverySource!.value).toMatchObject({ connection: { id: warehouseId, type: "postgres" } });
    expect(outputs.deliveryDestination!.value).toMatchObject({ connection: { id: bucketId, type: "s3" } });
    expect(outputs.deliveryStatus!.value).toBe("enabled");
    expect(outputs.scheduleTask!.value.packages).toEqual([expect.objectContaining({ packageId: Number(outputs.packageId!.value) })]);
    expect(Number(outputs.jobClusterId!.value)).toBe(Number(outputs.clusterId!.value));
    expect(outputs.jobStatus!.value).toBe("completed");
  });

  it("an unchanged preview proposes nothing, and no resource asks the service what a reference is", async () => {
    await service.resetRequests();
    await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(await service.calls()).toEqual([]);
  });

  it("a Package given as a connection is refused by the preview, naming the input", async () => {
    variant = "package as a connection";
    await service.resetRequests();
    const failure = await failureOf(test.stack.preview({ onOutput }));
    expect(failure).toMatch(/connections\.0/);
    if (surface === "plugin")
      expect(failure).toContain("connections.0 must be a Connection resource, or a connection's id and type, got a resource of type etl:index:Package");
    expect(await service.writeRequests()).toEqual([]);
  });

  it("a connection made in the same program, of a type a group cannot hold, is refused by the preview", async () => {
    variant = "new web connection in a group";
    await service.resetRequests();
    const failure = await failureOf(test.stack.preview({ onOutput }));
    expect(failure).toContain("connections.0.type must be the type of a database or cloud-storage connection");
    expect(await service.writeRequests()).toEqual([]);
    variant = "references";
  });

  // Only the plugin reads a resource by its id (`get`): it asks the service for the connection's type.
  if (surface === "plugin") {
    it("a connection read by its id is given with the type the service has for it", async () => {
      variant = "connection read by id";
      const events: EngineEvent[] = [];
      const preview = await test.stack.preview({ onOutput, onEvent: (event) => events.push(event) });
      expect(preview.changeSummary).toMatchObject({ create: 1 });
      const group = events.find((event) => event.resourcePreEvent?.metadata.urn.endsWith("ConnectionGroup::existing"))?.resourcePreEvent?.metadata;
      expect(group?.new?.inputs.connections).toEqual([{ id: EXISTING.id, type: EXISTING.type }]);
      variant = "references";
    });
  }

  it("destroy removes what up made", async () => {
    await test.stack.destroy({ onOutput });
    const account = (await service.state()).accounts[0];
    expect(account.connections.map((c: { id: number }) => c.id)).toEqual([EXISTING.id]);
    expect([account.connectionGroups.length, account.schedules.length]).toEqual([0, 0]);
  });
});
