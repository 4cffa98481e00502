/**
 * The examples, run from their own folders by the Node.js language host as `pulumi up` would,
 * against the emulator's default account (the one `npm run quickstart` uses).
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "pulumi-etl/emulator";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { createProjectStack, failureOf, type Service, type TestStack } from "../support/engine";
import { POLICY_PACK } from "../support/policy";
import { ACCEPT, control, serviceAt } from "../support/service";

const REPO_ROOT = path.resolve(__dirname, "../..");
const WRITE_METHODS = new Set(["POST", "PUT", "DELETE"]);
const WAREHOUSE_PASSWORD = "examples-warehouse-pw-0001";
const BUCKET_KEY = "examples-bucket-key-0002";

describe("examples on the real engine", { timeout: 300_000 }, () => {
  let emulator: RunningEmulator;
  let service: Service;
  const stacks: TestStack[] = [];
  const account = async () => (await control(emulator, "state")).accounts[0];

  /** An unchanged preview proposes nothing and sends nothing that could change the account. */
  async function expectQuietPreview(test: TestStack): Promise<void> {
    await control(emulator, "requests", "DELETE");
    await test.stack.preview({ expectNoChanges: true });
    const writes = (await control(emulator, "requests")).filter((r: { method: string }) => WRITE_METHODS.has(r.method));
    expect(writes).toEqual([]);
  }

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, speed: 20 });
    service = { url: emulator.url, accountId: emulator.accounts[0]!.uid, apiKey: emulator.accounts[0]!.apiKey };
  });

  afterAll(async () => {
    for (const s of stacks) s.dispose();
    await emulator?.close();
  });

  // First: the default account's cluster 201 ends after 30 minutes idle on the service's clock (20 times
  // faster here, so 90 s of this file), and adoption takes only a cluster that still runs. Once it is
  // adopted, the clock runs 10 times faster still, for the quickstart's cluster and job.
  it("adopt-existing: takes over the default account's group and cluster without creating others", async () => {
    const test = await createProjectStack("adopt", path.join(REPO_ROOT, "examples", "adopt-existing"), service);
    stacks.push(test);
    const before = await account();

    const up = await test.stack.up();
    expect(up.outputs.connectionGroupId!.value).toBe("401");
    expect(up.outputs.connectionGroupDescription!.value).toBe("Where curated data lands (managed by Pulumi)");
    expect(up.outputs.clusterId!.value).toBe("201");
    const adopted = await account();
    expect(adopted.connectionGroups.map((g: { id: number }) => g.id)).toEqual(before.connectionGroups.map((g: { id: number }) => g.id));
    expect(adopted.clusters.length).toBe(before.clusters.length);

    await test.stack.preview({ expectNoChanges: true });
    // Left as adopted (nothing here asks what a destroy of it does): the emulator goes with the file.
    await serviceAt(service).setSpeed(200);
  });

  it("quickstart: up builds the whole story with its progress on each resource's row, an unchanged preview writes nothing, destroy removes it", async () => {
    const test = await createProjectStack("quickstart", REPO_ROOT, service, {
      "etl-quickstart:warehousePassword": { value: WAREHOUSE_PASSWORD, secret: true },
      "etl-quickstart:bucketSecretKey": { value: BUCKET_KEY, secret: true },
    });
    stacks.push(test);
    const before = await account();

    const events: EngineEvent[] = [];
    const up = await test.stack.up({ onEvent: (event) => events.push(event) });
    expect(up.outputs.rollupStatus!.value).toBe("completed");
    // The waits' progress is on the cluster's and the job's own rows, and nothing on the stack's.
    const diagnostics = events.flatMap((event) => (event.diagnosticEvent ? [event.diagnosticEvent] : []));
    expect(diagnostics.filter((d) => d.urn?.includes("pulumi:pulumi:Stack"))).toEqual([]);
    const statusOn = (type: string) => diagnostics.filter((d) => d.ephemeral && d.urn?.includes(`::pulumi-nodejs:dynamic/etl:${type}::`));
    expect(statusOn("Cluster").some((d) => /cluster \d+ \w+/.test(d.message))).toBe(true);
    expect(statusOn("JobRun").some((d) => /job \d+ \w+/.test(d.message))).toBe(true);
    expect(up.outputs.rollupRecords!.value).toEqual({ orders_by_region: 18240, rejected_rows: 12 });
    expect(up.outputs.clusterStatus!.value).toMatch(/^(available|idle)$/);
    expect([...(up.outputs.connectionGroupConnections!.value as string[])].sort()).toEqual(["landing-bucket", "warehouse"]);
    expect(up.outputs.warehousePort!.value).toBe(5432);
    const made = await account();
    const warehouse = made.connections.find((c: { id: number }) => c.id === Number(up.outputs.warehouseConnectionId!.value));
    expect(warehouse).toMatchObject({ type: "postgres", name: "warehouse" });
    expect(JSON.stringify(made)).not.toContain(WAREHOUSE_PASSWORD);
    expect(up.outputs.deployKeyFingerprint!.value).toBe("da:b7:da:4e:f8:9f:e5:a4:e5:50:a8:df:a1:b4:b5:93");

    await expectQuietPreview(test);

    await test.stack.destroy();
    const after = await account();
    expect(after.publicKeys).toEqual(before.publicKeys);
    expect(after.connectionGroups).toEqual(before.connectionGroups);
    expect(after.connections.map((c: { id: number }) => c.id)).toEqual(before.connections.map((c: { id: number }) => c.id));
    const clusterId = Number(up.outputs.clusterId!.value);
    expect(after.clusters.find((c: { id: number }) => c.id === clusterId).status).toBe("terminated");
  });

  // No destroy for this example nor the next: a destroy runs no program, and their resources depend on
  // none of the stack's, so it would show only each kind's delete (test/kinds/*/engine.test.ts).
  it("nightly-pipeline: declares the schedule and the hook, an unchanged preview writes nothing", async () => {
    const test = await createProjectStack("nightly", path.join(REPO_ROOT, "examples", "nightly-pipeline"), service);
    stacks.push(test);

    const up = await test.stack.up();
    expect(up.outputs.nextRunAt!.value).toBe("2030-01-01T02:00:00.000Z");
    expect(up.outputs.hookSalt!.secret).toBe(true);
    const made = await account();
    const schedule = made.schedules.find((s: { id: number }) => s.id === Number(up.outputs.scheduleId!.value));
    expect(schedule).toMatchObject({ status: "enabled", intervalUnit: "days", overlap: false, reuseClusterStrategy: "self" });
    expect(schedule.task.packages).toEqual([{ packageId: 101, variables: { region: "'all'" } }]);
    const hook = made.hooks.find((h: { id: number }) => h.id === Number(up.outputs.hookId!.value));
    expect(hook).toMatchObject({ type: "web", events: ["job.failed"], active: true });

    await expectQuietPreview(test);
  });

  it("team-access: invites the team with their roles, an unchanged preview writes nothing", async () => {
    const test = await createProjectStack("team", path.join(REPO_ROOT, "examples", "team-access"), service);
    stacks.push(test);
    const members = async (): Promise<unknown[]> =>
      (
        await fetch(`${service.url}/${service.accountId}/api/members?role=all`, { headers: { accept: ACCEPT, authorization: basic(service.apiKey) } })
      ).json() as Promise<unknown[]>;
    const before = await members();

    const up = await test.stack.up();
    expect(up.outputs.roles!.value).toEqual({ "sam@example.com": "admin", "ari@example.com": "member" });
    expect([...(up.outputs.invitationsPending!.value as string[])].sort()).toEqual(["ari@example.com", "sam@example.com"]);
    expect(up.outputs.accountName!.value).toEqual(expect.any(String));
    expect((await members()).length).toBe(before.length + 2);

    await expectQuietPreview(test);
  });

  it("platform-team: two Pipelines pass the policy pack and come up with their children; a cluster over the platform's limit fails the preview with no call but the settings' proof", async () => {
    const folder = path.join(REPO_ROOT, "examples", "platform-team");
    const test = await createProjectStack("platform", folder, service);
    stacks.push(test);
    const withPack = { policyPacks: [POLICY_PACK], policyPackConfigs: [path.join(folder, "policy-config.json")] };

    // The update runs the policy pack on every resource it creates, as a preview would.
    const up = await test.stack.up(withPack);
    // The stack, two components, the orders team's package, schedule and hook, the marketing team's package and schedule.
    expect(up.summary.resourceChanges?.create).toBe(8);
    const made = await account();
    const schedule = (id: unknown) => made.schedules.find((s: { id: number }) => s.id === Number(id));
    expect(schedule(up.outputs.ordersScheduleId!.value)).toMatchObject({ intervalUnit: "days", task: { nodes: 4 } });
    expect(schedule(up.outputs.marketingScheduleId!.value)).toMatchObject({ intervalAmount: 6, intervalUnit: "hours", task: { nodes: 2 } });
    expect(made.hooks.filter((h: { id: number }) => h.id === Number(up.outputs.alertHookId!.value))).toHaveLength(1);
    // The marketing pipeline declares no hook of its own: it alerts through the one it was given.
    expect(up.outputs.marketingAlertHookId!.value).toBe(up.outputs.alertHookId!.value);
    await expectQuietPreview(test);

    await test.stack.setConfig("etl-platform-team:ordersNodes", { value: "50" });
    await control(emulator, "requests", "DELETE");
    const refused = await failureOf(test.stack.preview(withPack));
    expect(refused).toMatch(/Schedule "orders-schedule": task\.nodes is 50, more than the 8 allowed/);
    expect(await control(emulator, "requests")).toEqual([expect.objectContaining({ method: "GET", path: `/accounts/${emulator.accounts[0]!.uid}` })]);
    await test.stack.removeConfig("etl-platform-team:ordersNodes");

    await test.stack.destroy();
    const after = await account();
    expect(after.schedules.some((s: { id: number }) => s.id === Number(up.outputs.ordersScheduleId!.value))).toBe(false);
  });
});

function basic(apiKey: string): string {
  return `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`;
}
