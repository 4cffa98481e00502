/**
 * `Pipeline` through the real engine, on both surfaces (the dynamic component of the package, and
 * the plugin's component made by `Construct`): a cron whose times the service's one interval would
 * not keep fails the first preview, naming the input, the rule and the nearest exact forms, and
 * the service is left without a schedule or a package; up declares a package, a schedule from a
 * cron in a time zone and a failure hook, all children of the component; an unchanged preview
 * changes nothing and calls nothing; a new cron and cluster size update the schedule in place, and
 * so does a cron as people write it (`0 6 * * SUN` in Tokyo, a weekly schedule from Saturday 21:00 UTC); a
 * child that fails (a flow its validation refuses at up, a name of only spaces its check refuses
 * at preview) is the one error reported; destroy removes every child.
 */
import type * as pulumi from "@pulumi/pulumi";
import { readFileSync } from "node:fs";
import type { OutputMap } from "@pulumi/pulumi/automation";
import type { PipelineArgs } from "pulumi-etl";
import { RESOURCE_EXAMPLES } from "pulumi-etl/plugin";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestStack, failureOf, type TestStack } from "../support/engine";
import { filesUnder } from "../support/files";
import { startTestEmulator, type Emulator } from "../support/service";
import { declarePipeline, kindOfType, SURFACES, type Surface } from "../support/surfaces";

function pipelineOutputs(surface: Surface, name: string, args: PipelineArgs): Record<string, pulumi.Output<unknown>> {
  const { packageId, scheduleId, hookId, nextRunAt, deliveryId } = declarePipeline(surface, name, args);
  return { packageId: packageId!, scheduleId: scheduleId!, hookId: hookId!, nextRunAt: nextRunAt!, deliveryId: deliveryId! };
}

const PASSWORD = "pipeline-SECRET-pw-3141";
/** The connections of the flow (301, 302) and of the delivery (306 into 301). */
const CONNECTIONS = [
  { id: 301, name: "warehouse", type: "postgres", attributes: { username: "etl", password: "pw", host: "db.example.com", database: "analytics" } },
  { id: 302, name: "lake", type: "s3", attributes: { username: "AKIAEXAMPLE", password: "secret", region: "eu-west-1" } },
  { id: 306, name: "crm", type: "crm_platform", crmObjects: [{ name: "Contact" }] },
];
/** A flow writing to the CRM connection: valid to the package's check, refused by its validation at up. */
const FLOW_INTO_CRM = {
  components: [
    { name: "orders", type: "source", connection: { id: 301 }, table: "orders" },
    { name: "warehouse", type: "destination", connection: { id: 306 }, table: "recent_orders" },
  ],
  edges: [{ from: "orders", to: "warehouse" }],
};

/** The error lines of a run's diagnostics, but the engine's own closing line ("update failed"). */
function reportedErrors(output: string): string[] {
  const diagnostics = output.slice(output.indexOf("\nDiagnostics:"), output.indexOf("\nResources:"));
  return diagnostics
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith("error: ") && line !== "error: update failed");
}

const DELIVERY = {
  source: { connection: { id: 306, type: "crm_platform" }, properties: { object: "Contact" } },
  destination: { connection: { id: 301, type: "postgres" }, properties: { schema: "crm" } },
  interval: { amount: 1, unit: "days" as const },
};

describe.each(SURFACES)("Pipeline on the real engine (%s)", { timeout: 300_000 }, (surface) => {
  let service: Emulator;
  let test: TestStack;
  let outputs: OutputMap;
  let args: PipelineArgs;
  const cliOutput: string[] = [];

  const record = async (path: string) => (await service.api("GET", path)).body;

  beforeAll(async () => {
    service = await startTestEmulator({ speed: 60, account: { connections: CONNECTIONS } });
    args = {
      name: `orders rollup ${surface}`,
      flow: RESOURCE_EXAMPLES.Package.dataFlow,
      variables: { region: "'eu'", since: "2026-01-01" },
      // Monthly: on the service's clock (60 times faster) a daily schedule ran every 24 minutes, and a
      // run between the up and an update below made the service refuse the new start.
      schedule: { cron: "0 6 1 * *", timeZone: "New Delhi" },
      cluster: { nodes: 3, terminateOnIdle: false, timeToIdle: 120, reuse: "self" },
      delivery: DELIVERY,
      failureAlert: { type: "web", settings: { url: "https://alerts.example.com/etl", basicAuth: { username: "etl", password: PASSWORD } } },
    };
    test = await createTestStack(`pipeline-${surface}`, async () => pipelineOutputs(surface, "orders", args), service, {}, { plugin: surface === "plugin" });
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("refuses a cron whose times one interval would not keep, naming the rule and the nearest exact forms, and creates nothing", async () => {
    const kept = args;
    args = { ...args, schedule: { cron: "*/45 * * * *" } };
    const failure = await failureOf(test.stack.preview());
    args = kept;
    expect(failure).toContain(
      'schedule.cron "*/45 * * * *" runs at minutes 0 and 45 of each hour (a step starts again at each hour), which no one interval repeats: a minute step must divide 60; nearest exact: `*/30 * * * *` or `0 * * * *` (hourly)',
    );
    // The provider's own code shows no stack (the plugin surface's program shows its own, as any failed construct does).
    expect(failure).not.toMatch(/\n\s+at .*(components|provider|plugin)\//);
    expect(await service.writeRequests()).toEqual([]);
    expect([await record("/schedules"), await record("/packages")]).toEqual([[], []]);
  });

  it("declares the package with its flow, the schedule, the failure hook and the delivery under the component", async () => {
    outputs = (await test.stack.up({ onOutput: (text) => cliOutput.push(text) })).outputs;
    const exported = await test.stack.exportStack();
    const resources = exported.deployment.resources as Array<{ urn: string; type: string; parent?: string }>;
    const component = resources.find((resource) => resource.type === "etl:index:Pipeline")!;
    expect(component).toBeDefined();
    const children = resources.filter((resource) => resource.parent === component.urn).map((resource) => kindOfType(resource.type));
    expect(children.sort()).toEqual(["Delivery", "Hook", "Package", "Schedule"]);

    const schedule = await record(`/schedules/${outputs.scheduleId!.value}`);
    // 06:00 in New Delhi (UTC+05:30, all year) on the anchor day, repeated monthly.
    expect(schedule).toMatchObject({ name: args.name, interval_amount: 1, interval_unit: "months", status: "enabled" });
    expect(new Date(schedule.start_at).toISOString()).toBe("2026-01-01T00:30:00.000Z");
    expect(schedule).toMatchObject({ reuse_cluster_strategy: "self" });
    expect(schedule.task).toMatchObject({
      nodes: 3,
      terminate_on_idle: false,
      time_to_idle: 120,
      packages: [{ package_id: String(outputs.packageId!.value) }],
    });
    const hook = await record(`/hooks/${outputs.hookId!.value}`);
    expect(hook).toMatchObject({ type: "web", events: ["job.failed"], name: `${args.name} failures` });
    expect(await record(`/packages/${outputs.packageId!.value}`)).toMatchObject({ name: args.name, variables: { region: "'eu'", since: "2026-01-01" } });
    expect(JSON.stringify(await record(`/packages/${outputs.packageId!.value}/export`))).toContain("recent_orders");
    const delivery = await record(`/deliveries/${outputs.deliveryId!.value}`);
    expect(delivery).toMatchObject({ name: `${args.name} delivery`, interval_amount: 1, interval_unit: "days" });
    expect([delivery.source.connection.id, delivery.destination.connection.id].map(Number)).toEqual([306, 301]);
    // The alert's settings are kept encrypted wherever the stack's files hold them (the hook's inputs and outputs, the component's inputs), and never printed.
    const written = filesUnder(test.workDir).map((file) => readFileSync(file, "latin1"));
    for (const text of [...written, cliOutput.join("")]) expect(text).not.toContain(PASSWORD);
    expect(written.some((text) => text.includes("orders-alert"))).toBe(true);
  });

  it("previews no change without calling the service", async () => {
    await service.resetRequests();
    const preview = await test.stack.preview();
    expect(Object.keys(preview.changeSummary).filter((op) => op !== "same")).toEqual([]);
    expect(await service.calls()).toEqual([]);
  });

  it("updates the schedule in place for a new cron and cluster size", async () => {
    args = { ...args, schedule: { cron: "30 7 * * 1", timeZone: "UTC" }, cluster: { ...(args.cluster as object), nodes: 4 } };
    const result = await test.stack.up();
    expect(result.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(result.summary.resourceChanges?.create ?? 0).toBe(0);
    expect(result.outputs.scheduleId!.value).toBe(outputs.scheduleId!.value);
    const schedule = await record(`/schedules/${outputs.scheduleId!.value}`);
    // Mondays at 07:30 UTC: the first Monday on or after the anchor is 2026-01-05.
    expect(schedule).toMatchObject({ interval_amount: 1, interval_unit: "weeks" });
    expect(new Date(schedule.start_at).toISOString()).toBe("2026-01-05T07:30:00.000Z");
    expect(schedule.task.nodes).toBe(4);
  });

  it("takes a cron as people write it, a day's name in capitals in a zone without summer time, updating the schedule in place", async () => {
    args = { ...args, schedule: { cron: "0 6 * * SUN", timeZone: "Asia/Tokyo" } };
    const result = await test.stack.up();
    expect(result.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(result.outputs.scheduleId!.value).toBe(outputs.scheduleId!.value);
    const schedule = await record(`/schedules/${outputs.scheduleId!.value}`);
    // Sundays at 06:00 in Tokyo (UTC+09:00 all year): the first Sunday on or after the anchor is 2026-01-04, 21:00 UTC the day before.
    expect(schedule).toMatchObject({ interval_amount: 1, interval_unit: "weeks" });
    expect(new Date(schedule.start_at).toISOString()).toBe("2026-01-03T21:00:00.000Z");
  });

  it("a child that fails reports its own error once, and the component adds none", async () => {
    const kept = args;
    const runs: Array<{ output: string[]; failure: string }> = [];
    const failing = async (operation: (onOutput: (text: string) => void) => Promise<unknown>) => {
      const output: string[] = [];
      runs.push({ output, failure: await failureOf(operation((text) => output.push(text))) });
    };
    args = { ...kept, flow: FLOW_INTO_CRM };
    await failing((onOutput) => test.stack.up({ onOutput }));
    args = { ...kept, name: "   " };
    await failing((onOutput) => test.stack.preview({ onOutput }));
    args = kept;
    const [up, preview] = runs.map(({ output }) => output.join(""));
    expect(up).toMatch(/package \d+ is invalid: warehouse: destination "warehouse" writes to connection 306/);
    expect(reportedErrors(up!)).toEqual(["error: 1 error occurred:"]);
    expect(preview).toMatch(/Package resource 'orders-package' has a problem: name must have at least 1 character/);
    expect(reportedErrors(preview!)).toHaveLength(1);
    for (const { failure } of runs) expect(failure).not.toMatch(/client connection is closing|UNAVAILABLE|grpc:|resource monitor shut down/);
  });

  it("destroys every child", async () => {
    await test.stack.destroy();
    expect((await service.api("GET", `/schedules/${outputs.scheduleId!.value}`)).status).toBe(404);
    expect((await service.api("GET", `/hooks/${outputs.hookId!.value}`)).status).toBe(404);
    expect((await service.api("GET", `/deliveries/${outputs.deliveryId!.value}`)).status).toBe(404);
    expect(await record(`/packages/${outputs.packageId!.value}`)).toMatchObject({ status: "archived" });
  });
});
