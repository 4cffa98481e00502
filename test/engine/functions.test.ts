/**
 * The functions inside a real Pulumi program: they read the service's address and key from the
 * stack's configuration (the ETL_* variables are blank), their values become stack outputs, and
 * a missing record fails the update with the service's message.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getHookEvents, getHookTypes, getPackage, getSchedule, listCrmObjects, pingHook, searchConnectionGroups, searchSchedules } from "pulumi-etl";
import { createTestStack, type TestStack } from "../support/engine";
import { startTestEmulator, type Emulator } from "../support/service";

const ENV_NAMES = ["ETL_API_URL", "ETL_ACCOUNT_ID", "ETL_API_KEY"] as const;

describe("functions in a program on the real engine", { timeout: 180_000 }, () => {
  let service: Emulator;
  let test: TestStack;
  const savedEnv: Partial<Record<(typeof ENV_NAMES)[number], string>> = {};
  /** Read by the program on every run, so one stack serves every step. */
  let packageId = 101;

  beforeAll(async () => {
    // Inline programs run in this process: nothing here may supply the settings but the stack.
    for (const name of ENV_NAMES) {
      savedEnv[name] = process.env[name];
      delete process.env[name];
    }
    service = await startTestEmulator({
      account: {
        packages: [{ id: 101, name: "orders-daily-rollup", description: "Rolls up orders", variables: { region: "all" } }],
        connections: [
          { id: 301, name: "warehouse", type: "postgres" },
          { id: 306, name: "crm", type: "crm_platform", crmObjects: [{ name: "Contact" }, { name: "Deal" }] },
        ],
        connectionGroups: [
          { id: 401, name: "warehouses", description: "Where the data lands", connectionIds: [301] },
          { id: 402, name: "warehouse-archive" },
          { id: 403, name: "marketing" },
        ],
        schedules: [
          { id: 501, name: "nightly rollup", intervalUnit: "days", task: { packages: [{ packageId: 101 }] } },
          { id: 502, name: "hourly sync", intervalUnit: "hours", task: { packages: [{ packageId: 101 }] } },
        ],
        hooks: [{ id: 601, type: "email", name: "ops", events: ["job.failed"], settings: { emails: "ops@example.com" } }],
      },
    });
    test = await createTestStack(
      "functions",
      async () => {
        const pkg = await getPackage({ packageId });
        const groups = await searchConnectionGroups({ q: "warehouse" });
        const crmObjects = await listCrmObjects({ connectionId: "306" });
        const nightly = await getSchedule({ scheduleId: "501" });
        const hourly = await searchSchedules({ q: "name:hourly" });
        const hookTypes = await getHookTypes();
        const hookEvents = await getHookEvents();
        const pinged = await pingHook({ hookId: 601 });
        return {
          scheduleUnit: nightly.intervalUnit,
          foundSchedules: hourly.map((schedule) => schedule.id),
          hookTypes: hookTypes.map((type) => type.type),
          hookEvents: hookEvents.filter((event) => event.groupName === "Cluster").map((event) => event.id),
          pingedEvents: pinged.events.map((event) => [event.id, event.lastTriggerStatus]),
          pingedHasSalt: "salt" in pinged,
          packageName: pkg.name,
          packageStatus: pkg.status,
          packageVariables: pkg.variables,
          groupIds: groups.map((g) => g.id),
          firstGroupConnections: groups[0]?.connections.map((c) => c.name),
          crmObjectNames: crmObjects.map((o) => o.name),
        };
      },
      service,
    );
  });

  afterAll(async () => {
    for (const name of ENV_NAMES) {
      if (savedEnv[name] === undefined) delete process.env[name];
      else process.env[name] = savedEnv[name];
    }
    test?.dispose();
    await service?.emulator.close();
  });

  it("up exports what the functions read with the stack's configuration", async () => {
    await service.resetRequests();
    const result = await test.stack.up();
    expect(result.summary.result).toBe("succeeded");
    const outputs = Object.fromEntries(Object.entries(result.outputs).map(([name, output]) => [name, output.value]));
    expect(outputs).toEqual({
      packageName: "orders-daily-rollup",
      packageStatus: "active",
      packageVariables: { region: "all" },
      groupIds: [401, 402],
      firstGroupConnections: ["warehouse"],
      crmObjectNames: ["Contact", "Deal"],
      scheduleUnit: "days",
      foundSchedules: [502],
      hookTypes: ["web", "slack", "email", "hipchat", "pagerduty"],
      hookEvents: ["cluster", "cluster.requested", "cluster.available", "cluster.terminated", "cluster.idled", "cluster.error"],
      pingedEvents: [["job.failed", "none"]],
      pingedHasSalt: false,
    });
    const calls = (await service.requests()).map((r) => `${r.method} ${r.path} ${r.status}`);
    expect(calls).toEqual([
      "GET /acme-test/api/packages/101 200",
      "GET /acme-test/api/connection_groups/search 200",
      "GET /acme-test/api/connections/306/crm_platform/objects 200",
      "GET /acme-test/api/schedules/501 200",
      "GET /acme-test/api/schedules/search 200",
      "GET /acme-test/api/hooks/types 200",
      "GET /hook_events 200",
      "GET /acme-test/api/hooks/601/ping 200",
    ]);
  });

  it("a missing package fails the update with the service's Item not found.", async () => {
    packageId = 999_999;
    const error = await test.stack.up().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error, "the update should have failed").toBeInstanceOf(Error);
    expect(String((error as Error).message)).toContain("Item not found.");
    expect(String((error as Error).message)).toContain("/packages/999999");
  });

  it("destroy leaves nothing behind", async () => {
    packageId = 101;
    const result = await test.stack.destroy();
    expect(result.summary.result).toBe("succeeded");
    expect((await test.stack.exportStack()).deployment.resources ?? []).toEqual([]);
  });
});
