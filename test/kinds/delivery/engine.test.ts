/**
 * Delivery through the real engine against the emulator, its clock sped up so the set-up
 * takes two seconds and a delivery of one minute runs every second: up waits until enabled, an
 * unchanged preview and refresh, runs started by the delivery, a replacement for any change,
 * a delivery deleted out of band, adoption by importId, a deleted source connection seen as
 * disabled on refresh, destroy; and the API calls each operation costs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutputMap } from "@pulumi/pulumi/automation";
import { Connection, Delivery, type DeliveryArgs } from "pulumi-etl";
import { createTestStack, failureOf, type TestStack } from "../../support/engine";
import { startTestEmulator, type Emulator } from "../../support/service";

const CONNECTIONS = [
  { id: 301, name: "warehouse", type: "postgres", attributes: { username: "etl", password: "pw", host: "db.example.com", database: "analytics" } },
  { id: 302, name: "lake", type: "s3", attributes: { username: "AKIAEXAMPLE", password: "secret", region: "eu-west-1" } },
  { id: 306, name: "crm", type: "crm_platform", crmObjects: [{ name: "Contact" }] },
];
const SOURCE = { connection: { id: 306, type: "crm_platform" }, properties: { object: "Contact" } };
/** The destination's schema as the create example writes it; the service reads it back as `schema`. */
const DESTINATION = { connection: { id: "301", type: "postgres" }, properties: { schema_name: "crm" } };

describe("Delivery on the real engine", { timeout: 240_000 }, () => {
  let service: Emulator;
  let test: TestStack;
  const onOutput = (_text: string) => undefined;

  let args: DeliveryArgs = { name: "crm to warehouse", interval: { amount: 1, unit: "minutes" }, source: SOURCE, destination: DESTINATION };
  let adoptedArgs: DeliveryArgs | undefined;
  /** A second delivery, into a bucket the same program declares as a `Connection`. */
  let intoBucket = false;
  let outputs: OutputMap;

  const delivery = async (id: unknown) => {
    const { status, body } = await service.api("GET", `/deliveries/${String(id)}`);
    return status === 200 ? body : undefined;
  };
  const deliveryIds = async () => ((await service.api("GET", "/deliveries?limit=100")).body as Array<{ id: number }>).map((d) => d.id).sort();
  const jobsOf = async (id: unknown) =>
    ((await service.api("GET", "/jobs?limit=100")).body as Array<{ creator: { type: string; id: number } }>).filter(
      (job) => job.creator.type === "Delivery" && job.creator.id === Number(id),
    );

  beforeAll(async () => {
    service = await startTestEmulator({ speed: 60, account: { connections: CONNECTIONS } });
    test = await createTestStack(
      "delivery",
      async () => {
        const made = new Delivery("crm", args);
        const adopted = adoptedArgs === undefined ? undefined : new Delivery("adopted", adoptedArgs);
        const bucket = intoBucket ? new Connection("bucket", { type: "s3", name: "bucket", username: "AKIAEXAMPLE", password: "bucket-secret" }) : undefined;
        const toBucket =
          bucket === undefined
            ? undefined
            : new Delivery("to-bucket", {
                interval: { amount: 1, unit: "days" },
                source: SOURCE,
                destination: { connection: bucket, properties: { path: "crm/" } },
              });
        return {
          urn: made.urn,
          id: made.id,
          status: made.status,
          statusMessage: made.statusMessage,
          packageId: made.packageId,
          destination: made.destination,
          interval: made.interval,
          adoptedId: adopted?.id,
          adoptedStatus: adopted?.status,
          bucketId: bucket?.id,
          toBucketStatus: toBucket?.status,
        };
      },
      service,
    );
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("up creates the delivery in one write and waits until the service has set it up", async () => {
    await service.resetRequests();
    const up = await test.stack.up({ onOutput });
    outputs = up.outputs;
    expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
    expect(await service.writeRequests()).toEqual([expect.objectContaining({ method: "POST", path: "/acme-test/api/deliveries" })]);
    expect(new Set(await service.calls())).toEqual(new Set(["POST /deliveries", `GET /deliveries/${outputs.id!.value}`]));
    expect(outputs.status!.value).toBe("enabled");
    expect(outputs.packageId!.value).toEqual(expect.any(Number));
    expect(outputs.destination!.value).toEqual({ connection: { id: 301, type: "postgres" }, properties: { schema: "crm" } });
    expect(await delivery(outputs.id!.value)).toMatchObject({
      name: "crm to warehouse",
      status: "enabled",
      interval_amount: 1,
      interval_unit: "minutes",
      destination: { connection: { id: 301, type: "postgres" }, properties: { schema: "crm" } },
    });
  });

  it("the enabled delivery runs jobs of its pipeline on the service's clock", async () => {
    const deadline = Date.now() + 20_000;
    while ((await jobsOf(outputs.id!.value)).length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    const jobs = (await service.api("GET", "/jobs?limit=100")).body as Array<{ package_id: number; creator: { type: string; id: number } }>;
    const runs = jobs.filter((job) => job.creator.type === "Delivery" && job.creator.id === Number(outputs.id!.value));
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.every((job) => job.package_id === outputs.packageId!.value)).toBe(true);
  });

  it("an unchanged preview proposes nothing and calls no endpoint, though the service reads the schema as `schema`", async () => {
    await service.resetRequests();
    const preview = await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(preview.changeSummary).toEqual({ same: 2 });
    expect(await service.calls()).toEqual([]);
  });

  it("refresh finds no change, reading the delivery once, and the next preview none either", async () => {
    await service.resetRequests();
    const refresh = await test.stack.refresh({ expectNoChanges: true, onOutput });
    expect(refresh.summary.resourceChanges).toEqual({ same: 2 });
    expect(await service.calls()).toEqual([`GET /deliveries/${outputs.id!.value}`]);
    await test.stack.preview({ expectNoChanges: true, onOutput });
  });

  it("a new interval replaces the delivery: the new one is made and enabled, then the old one deleted", async () => {
    args = { ...args, interval: { amount: 2, unit: "minutes" } };
    await service.resetRequests();
    const up = await test.stack.up({ onOutput });
    expect(up.summary.resourceChanges).toEqual({ replace: 1, same: 1 });
    const writes = (await service.writeRequests()).map((r) => `${r.method} ${r.path.replace("/acme-test/api", "")}`);
    expect(writes).toEqual(["POST /deliveries", `DELETE /deliveries/${outputs.id!.value}`]);
    expect(up.outputs.id!.value).not.toBe(outputs.id!.value);
    expect(await deliveryIds()).toEqual([Number(up.outputs.id!.value)]);
    expect(await delivery(up.outputs.id!.value)).toMatchObject({ status: "enabled", interval_amount: 2 });
    outputs = up.outputs;
  });

  it("a delivery deleted out of band is dropped by refresh and made again by up, in one `up --refresh`", async () => {
    expect((await service.api("DELETE", `/deliveries/${outputs.id!.value}`)).status).toBe(200);
    // Had the refresh kept the delivery, the update would have found nothing to make.
    const up = await test.stack.up({ onOutput, refresh: true });
    expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
    expect(up.outputs.status!.value).toBe("enabled");
    expect(await deliveryIds()).toEqual([Number(up.outputs.id!.value)]);
    outputs = up.outputs;
  });

  it("importId of a delivery that differs from the inputs fails the adoption, naming what differs, and keeps nothing", async () => {
    const made = await service.api("POST", "/deliveries", {
      name: "by hand",
      source: SOURCE,
      destination: { connection: { id: 302 } },
      interval_unit: "hours",
    });
    expect(made.status).toBe(201);
    adoptedArgs = { name: "by hand", source: SOURCE, destination: { connection: { id: 302, type: "s3" } }, importId: String(made.body.id) };
    const output = await failureOf(test.stack.up({ onOutput }));
    expect(output).toContain(`cannot adopt delivery ${made.body.id}: it differs from the inputs in interval`);
    const state = (await test.stack.exportStack()).deployment.resources ?? [];
    expect(state.filter((r: any) => r.type === "pulumi-nodejs:dynamic/etl:Delivery")).toHaveLength(1);
  });

  it("importId adopts a matching delivery once set up, and then nothing is left to change", async () => {
    adoptedArgs = { ...adoptedArgs!, interval: { amount: 1, unit: "hours" } };
    await service.resetRequests();
    const up = await test.stack.up({ onOutput });
    expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
    expect(await service.writeRequests()).toEqual([]);
    expect(up.outputs.adoptedStatus!.value).toBe("enabled");

    await service.resetRequests();
    await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(await service.calls()).toEqual([]);
    adoptedArgs = undefined;
    await test.stack.up({ onOutput });
    expect(await deliveryIds()).toEqual([Number(outputs.id!.value)]);
  });

  it("takes a Connection resource as an end: made in the same up, the delivery after it", async () => {
    intoBucket = true;
    const up = await test.stack.up({ onOutput });
    expect(up.outputs.toBucketStatus!.value).toBe("enabled");
    const made = (
      (await service.api("GET", "/deliveries?limit=100")).body as Array<{ id: number; destination: { connection: { id: number; type: string } } }>
    ).find((d) => d.destination.connection.id === Number(up.outputs.bucketId!.value));
    expect(made?.destination.connection).toEqual({ id: Number(up.outputs.bucketId!.value), type: "s3" });
    await service.resetRequests();
    await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(await service.calls()).toEqual([]);
    intoBucket = false;
    await test.stack.up({ onOutput });
    expect(await deliveryIds()).toEqual([Number(outputs.id!.value)]);
  });

  it("deleting its source connection shows the delivery disabled, with the reason, on refresh", async () => {
    expect((await service.api("DELETE", "/connections/crm_platform/306")).status).toBe(200);
    await test.stack.refresh({ onOutput });
    const state = (await test.stack.exportStack()).deployment.resources ?? [];
    const recorded = state.find((r: any) => r.type === "pulumi-nodejs:dynamic/etl:Delivery")!.outputs;
    expect(recorded).toMatchObject({ status: "disabled", statusMessage: 'its source connection 306 ("crm") was deleted' });
  });

  it("destroy deletes the delivery", async () => {
    await service.resetRequests();
    await test.stack.destroy({ onOutput });
    expect((await service.writeRequests()).map((r) => r.method)).toEqual(["DELETE"]);
    expect(await deliveryIds()).toEqual([]);
  });
});
