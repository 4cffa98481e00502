/**
 * Ids that name other objects, through the real engine on both surfaces: a Pipeline whose
 * `alertHookId` names no hook, and a Schedule whose package does not exist, fail `up` naming the
 * input, and the service holds nothing the stack made (the pipeline's package is not even sent,
 * the schedule's create is refused); with ids that exist, the same stack comes up, its hook read once.
 */
import type * as pulumi from "@pulumi/pulumi";
import { RESOURCE_EXAMPLES } from "pulumi-etl/plugin";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestStack, failureOf, type TestStack } from "../support/engine";
import { startTestEmulator, TEST_ACCOUNT, type Emulator } from "../support/service";
import { declare, declarePipeline, SURFACES } from "../support/surfaces";

const MISSING_HOOK = 999_999;
const MISSING_PACKAGE = 999_998;

/** The connections of the flow (301, 302) and of the delivery (306 into 301). */
const CONNECTIONS = [
  { id: 301, name: "warehouse", type: "postgres", attributes: { username: "etl", password: "pw", host: "db.example.com", database: "analytics" } },
  { id: 302, name: "lake", type: "s3", attributes: { username: "AKIAEXAMPLE", password: "secret", region: "eu-west-1" } },
  { id: 306, name: "crm", type: "crm_platform", crmObjects: [{ name: "Contact" }] },
];
const DELIVERY = {
  source: { connection: { id: 306, type: "crm_platform" }, properties: { object: "Contact" } },
  destination: { connection: { id: 301, type: "postgres" }, properties: { schema: "crm" } },
};

/** What the stack made on the service, by kind (the account's fixtures hold none of these). */
const MADE = ["packages", "schedules", "hooks", "deliveries"] as const;

describe.each(SURFACES)("ids naming nothing on the real engine (%s)", { timeout: 300_000 }, (surface) => {
  let service: Emulator;
  let test: TestStack;
  let ids = { hook: MISSING_HOOK as number, package: MISSING_PACKAGE as number };

  const made = async () => {
    const account = (await service.state()).accounts[0];
    return Object.fromEntries(MADE.map((kind) => [kind, (account[kind] as unknown[]).length]));
  };

  beforeAll(async () => {
    service = await startTestEmulator({ speed: 60, account: { connections: CONNECTIONS } });
    const program = async () => {
      const pipeline = declarePipeline(surface, "orders", {
        name: `orders ${surface}`,
        flow: RESOURCE_EXAMPLES.Package.dataFlow,
        variables: { since: "2026-01-01" },
        schedule: { cron: "0 6 * * *" },
        alertHookId: ids.hook,
        delivery: DELIVERY,
      });
      const nightly = declare(surface, "Schedule", "nightly", {
        name: "nightly",
        interval: { amount: 1, unit: "days" },
        task: { packages: [{ packageId: ids.package }] },
      });
      return { hookId: pipeline.hookId!, scheduleId: pipeline.scheduleId!, nightlyId: nightly.id as pulumi.Output<string> };
    };
    test = await createTestStack(`references-${surface}`, program, service, {}, { plugin: surface === "plugin" });
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("fails up naming alertHookId and the schedule's packageId, and makes nothing", async () => {
    await service.resetRequests();
    const failure = await failureOf(test.stack.up({ continueOnError: true }));
    console.log("FAILURE>>>", failure);
    expect(failure).toContain(`alertHookId ${MISSING_HOOK}: no hook with this id in account ${TEST_ACCOUNT}`);
    expect(failure).toContain(`task.packages.0.packageId ${MISSING_PACKAGE}: no package with this id in account ${TEST_ACCOUNT}`);
    expect(failure).not.toMatch(/\n\s+at .*(provider|components|resources)\//);
    expect(await made()).toEqual({ packages: 0, schedules: 0, hooks: 0, deliveries: 0 });
    // The pipeline's package is never sent, nor any child after it; the schedule's create is refused.
    expect((await service.writeRequests()).map((r) => `${r.method} ${r.path.replace(`/${TEST_ACCOUNT}/api`, "")} ${r.status}`)).toEqual([
      "POST /schedules 422",
    ]);
    expect(await service.calls()).toContain(`GET /hooks/${MISSING_HOOK}`);
  });

  it("comes up once the ids name objects that exist, reading the hook once", async () => {
    const hook = await service.api("POST", "/hooks", { type: "web", events: ["job.failed"], settings: { url: "https://alerts.example.com/etl" } });
    const pkg = await service.api("POST", "/packages", { name: "nightly rollup" });
    ids = { hook: hook.body.id, package: pkg.body.id };
    await service.resetRequests();
    const { outputs } = await test.stack.up();
    expect(outputs.hookId!.value).toBe(String(ids.hook));
    expect((await service.calls()).filter((call) => call.startsWith("GET /hooks/"))).toEqual([`GET /hooks/${ids.hook}`]);
    // The pipeline's package, the one made here, and the package the service makes for the delivery.
    expect(await made()).toEqual({ packages: 3, schedules: 2, hooks: 1, deliveries: 1 });
  });
});
