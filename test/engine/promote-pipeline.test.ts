/**
 * examples/promote-pipeline, run from its folder as `pulumi up` would, once per environment: the
 * same export document becomes an equivalent package in a development and a production account
 * (each with its own connection ids), production adds a nightly schedule of it and a delivery of
 * the CRM's contacts into the warehouse, enabled before `up` ends; an unchanged
 * preview writes nothing; destroy archives the packages.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProjectStack, type Service, type TestStack } from "../support/engine";
import { ACCEPT, startTestEmulator, type Emulator } from "../support/service";

const EXAMPLE = path.resolve(__dirname, "../../examples/promote-pipeline");
const PROD_KEY = "promote-prod-key-0001";
const PROD = { id: 8, uid: "acme-prod" };
const WRITE_METHODS = new Set(["POST", "PUT", "DELETE"]);

describe("promote-pipeline on the real engine", { timeout: 300_000 }, () => {
  let service: Emulator;
  let production: Service;
  const stacks: TestStack[] = [];

  const api = async (as: Service, method: string, apiPath: string) => {
    const response = await fetch(`${as.url}/${as.accountId}/api${apiPath}`, {
      method,
      headers: { accept: ACCEPT, authorization: `Basic ${Buffer.from(`${as.apiKey}:`).toString("base64")}` },
    });
    return response.json() as Promise<any>;
  };

  beforeAll(async () => {
    service = await startTestEmulator({
      speed: 60,
      account: {
        clusters: [{ id: 201, name: "dev" }],
        connections: [
          { id: 301, name: "warehouse", type: "postgres" },
          { id: 306, name: "crm", type: "crm_platform" },
        ],
      },
      otherAccounts: [
        {
          ...PROD,
          users: [{ id: 80, name: "Prod Deployer", email: "deploy@example.com", apiKey: PROD_KEY }],
          connections: [
            { id: 1301, name: "warehouse", type: "postgres" },
            { id: 1306, name: "crm", type: "crm_platform" },
          ],
        },
      ],
    });
    production = { url: service.url, accountId: PROD.uid, apiKey: PROD_KEY };
  });

  afterAll(async () => {
    for (const s of stacks) s.dispose();
    await service?.emulator.close();
  });

  it("the same document makes an equivalent, valid package in each account; production adds its nightly schedule", async () => {
    const dev = await createProjectStack("promote-dev", EXAMPLE, service);
    const prod = await createProjectStack("promote-prod", EXAMPLE, production, {
      "etl-promote-pipeline:environment": { value: "production" },
      "etl-promote-pipeline:connectionIds": { value: JSON.stringify({ "301": 1301, "306": 1306 }) },
    });
    stacks.push(dev, prod);

    const devUp = await dev.stack.up();
    const prodUp = await prod.stack.up();
    expect(devUp.outputs.validation!.value).toBe("completed");
    expect(prodUp.outputs.validation!.value).toBe("completed");
    expect(devUp.outputs.scheduleId?.value).toBeUndefined();

    const devExport = await api(service, "GET", `/packages/${devUp.outputs.packageId!.value}/export`);
    const prodExport = await api(production, "GET", `/packages/${prodUp.outputs.packageId!.value}/export`);
    const withoutConnections = (document: any) => ({
      ...document,
      data_flow_json: { ...document.data_flow_json, components: document.data_flow_json.components.map(({ connection: _, ...rest }: any) => rest) },
    });
    expect(withoutConnections(prodExport)).toEqual(withoutConnections(devExport));
    expect(prodExport.data_flow_json.components.map((c: any) => c.connection?.id)).toEqual([1306, undefined, undefined, 1301]);

    expect(devUp.outputs.deliveryId?.value).toBeUndefined();
    expect(prodUp.outputs.deliveryStatus!.value).toBe("enabled");
    const delivery = await api(production, "GET", `/deliveries/${prodUp.outputs.deliveryId!.value}`);
    expect(delivery).toMatchObject({ source: { connection: { id: 1306 } }, destination: { connection: { id: 1301 }, properties: { schema: "crm" } } });

    const schedule = await api(production, "GET", `/schedules/${prodUp.outputs.scheduleId!.value}`);
    expect(schedule.task.packages.map((p: any) => Number(p.package_id))).toEqual([Number(prodUp.outputs.packageId!.value)]);

    await service.resetRequests();
    await prod.stack.preview({ expectNoChanges: true });
    expect((await service.requests()).filter((r) => WRITE_METHODS.has(r.method))).toEqual([]);

    await prod.stack.destroy();
    await dev.stack.destroy();
    expect((await api(production, "GET", `/packages/${prodUp.outputs.packageId!.value}`)).status).toBe("archived");
    expect((await api(service, "GET", `/packages/${devUp.outputs.packageId!.value}`)).status).toBe("archived");
    expect((await api(production, "GET", "/deliveries")).length).toBe(0);
  });
});
