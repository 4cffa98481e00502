/**
 * Packages made from a template through the real engine, on the plugin: `templateId` with the
 * connections its sources and destinations use (and a `Pipeline` given a template), made with
 * the template's flow connected and validated, once the connections are read; an unchanged preview that calls nothing; a
 * connection changed on the service found by a refresh and set back by `up`, while an edit of the
 * flow itself stays the package's. A flow (a Package's `dataFlow`, a Pipeline's `flow`) naming
 * a connection the account does not have fails `up` naming the input, before the package is sent:
 * at create nothing is made, at update the working flow stays on the service and in the state.
 * A template without its connections, or with a flow beside it, is a check's refusal: each
 * surface's check prints it in template-check.test.ts, and a check's refusal fails the preview
 * before any call, for every kind, in test/engine/bad-input-*.test.ts.
 */
import type { OutputMap } from "@pulumi/pulumi/automation";
import type { PipelineArgs } from "pulumi-etl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestStack, failureOf, type TestStack } from "../../support/engine";
import { startTestEmulator, TEST_ACCOUNT, type Emulator } from "../../support/service";
import { declare, declarePipeline, type Surface } from "../../support/surfaces";

const WAREHOUSE = { id: 301, name: "warehouse", type: "postgres" };
const LAKE = { id: 302, name: "lake", type: "s3" };
const OTHER_WAREHOUSE = { id: 303, name: "replica", type: "postgres" };
/** "Copy a table": one source, one destination. */
const COPY_A_TABLE = 1;
/** "Daily rollup": a source, a filter on its variable `day`, an aggregate, a destination. */
const DAILY_ROLLUP = 2;
const MISSING = 999_999;
const MISSING_CONNECTION = `dataFlow.components.1.connection.id ${MISSING}: no connection with this id in account ${TEST_ACCOUNT}`;

/** A table of the warehouse copied to a destination connection. */
function flowTo(destination: number) {
  return {
    components: [
      { name: "rows", type: "source", connection: { id: WAREHOUSE.id }, table: "orders" },
      { name: "lake", type: "destination", connection: { id: destination }, path: "orders/" },
    ],
    edges: [{ from: "rows", to: "lake" }],
  };
}

interface FlowComponent {
  name: string;
  type: string;
  connection?: { id: number };
  condition?: string;
}

function connectionsOf(flow: unknown): Record<string, number | undefined> {
  const components = (flow as { components: FlowComponent[] }).components;
  return Object.fromEntries(components.filter((c) => c.connection !== undefined || /source|destination/.test(c.type)).map((c) => [c.name, c.connection?.id]));
}

// One surface, the plugin; what each surface adds is proven for every kind on both in test/engine (docs/development.md).
const surface: Surface = "plugin";

describe("a package made from a template on the plugin", { timeout: 300_000 }, () => {
  let service: Emulator;
  let test: TestStack;
  let outputs: OutputMap;
  let packageArgs: Record<string, unknown>;
  let pipelineTemplate: PipelineArgs["template"];
  let pipelineVariables: PipelineArgs["variables"];
  let pipelineFlow: PipelineArgs["flow"];
  let flowedArgs: Record<string, unknown> | undefined;

  const exported = async (id: unknown) => (await service.api("GET", `/packages/${String(id)}/export`)).body;
  const up = async () => (outputs = (await test.stack.up()).outputs);
  const activeNamed = async (name: string) =>
    ((await service.api("GET", "/packages?limit=100")).body as { id: number; name: string; status: string }[]).filter(
      (p) => p.name === name && p.status === "active",
    );
  /** The state's resource of this name, as the stack records it. */
  const recorded = async (name: string) =>
    ((await test.stack.exportStack()).deployment.resources as Array<{ urn: string; outputs?: Record<string, unknown> }>).find((r) =>
      r.urn.endsWith(`::${name}`),
    );

  beforeAll(async () => {
    service = await startTestEmulator({ account: { connections: [WAREHOUSE, LAKE, OTHER_WAREHOUSE] } });
    packageArgs = { name: `copied ${surface}`, templateId: COPY_A_TABLE, sourceConnectionId: WAREHOUSE.id, destinationConnectionId: String(LAKE.id) };
    test = await createTestStack(
      `package-template-${surface}`,
      async () => {
        const pkg = declare(surface, "Package", "copied", packageArgs);
        const result: Record<string, unknown> = { id: pkg.id, flow: pkg.dataFlow, validation: pkg.validationStatus, description: pkg.description };
        if (flowedArgs !== undefined) result.flowedId = declare(surface, "Package", "flowed", flowedArgs).id;
        if (pipelineTemplate !== undefined || pipelineFlow !== undefined) {
          const own = pipelineVariables === undefined ? {} : { variables: pipelineVariables };
          const pipeline = declarePipeline(surface, "rollup", {
            name: `rollup ${surface}`,
            ...(pipelineFlow === undefined ? { template: pipelineTemplate } : { flow: pipelineFlow }),
            schedule: { cron: "0 6 * * *" },
            ...own,
          });
          result.pipelinePackageId = pipeline.packageId;
        }
        return result;
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

  it("up makes it from the template, sets its connections in one update and validates it; an unchanged preview calls nothing", async () => {
    await service.resetRequests();
    await up();
    const id = String(outputs.id!.value);
    const calls = await service.calls();
    // The connections are read first: the service would take a flow whose connection does not exist.
    expect(calls.slice(0, 2).sort()).toEqual([`GET /connections/${WAREHOUSE.id}`, `GET /connections/${LAKE.id}`].sort());
    expect(calls.slice(2)).toEqual(["POST /packages", `GET /packages/${id}/export`, `PUT /packages/${id}`, `POST /packages/${id}/validate`]);
    expect(connectionsOf((await exported(id)).data_flow_json)).toEqual({ source: WAREHOUSE.id, destination: LAKE.id });
    expect(outputs.validation!.value).toBe("completed");
    // What the program leaves out is the template's.
    expect(outputs.description!.value).toContain("Reads a table");
    await service.resetRequests();
    await test.stack.preview({ expectNoChanges: true });
    expect(await service.calls()).toEqual([]);
  });

  it("a flow naming a connection the account does not have fails up naming the input; nothing is made, nor written to the stack", async () => {
    flowedArgs = { name: `flowed ${surface}`, dataFlow: flowTo(MISSING) };
    await service.resetRequests();
    const failure = await failureOf(test.stack.up());
    expect(failure).toContain(MISSING_CONNECTION);
    expect(failure).not.toContain("is invalid");
    expect(failure).not.toMatch(/\n\s+at .*(provider|resources)\//);
    // The connections are read, each once; the package is never sent.
    expect((await service.calls()).sort()).toEqual([`GET /connections/${WAREHOUSE.id}`, `GET /connections/${MISSING}`]);
    expect(await service.writeRequests()).toEqual([]);
    expect(await activeNamed(`flowed ${surface}`)).toEqual([]);
    expect(await recorded("flowed")).toBeUndefined();
  });

  it("a connection changed on the service is found by refresh and set back by up; an edit of the flow itself stays", async () => {
    // The same update makes a package of a working flow, which the next test updates.
    flowedArgs = { name: `flowed ${surface}`, dataFlow: flowTo(LAKE.id) };
    const id = String(outputs.id!.value);
    const flow = (await exported(id)).data_flow_json as { components: FlowComponent[]; edges: unknown[] };
    const edited = {
      components: flow.components.map((c) => (c.type === "source" ? { ...c, connection: { id: OTHER_WAREHOUSE.id }, table: "orders_archive" } : c)),
      edges: flow.edges,
    };
    expect((await service.api("PUT", `/packages/${id}`, { data_flow_json: edited })).status).toBe(200);
    // One `up --refresh`: had the refresh not found the change, the update would have nothing to set back.
    const result = await test.stack.up({ refresh: true, diff: true });
    outputs = result.outputs;
    expect(result.summary.resourceChanges).toMatchObject({ update: 1, create: 1 });
    expect(result.stdout).toContain("sourceConnectionId");
    const after = (await exported(id)).data_flow_json as { components: Array<FlowComponent & { table?: string }> };
    expect(connectionsOf(after)).toEqual({ source: WAREHOUSE.id, destination: LAKE.id });
    expect(after.components.find((c) => c.type === "source")!.table).toBe("orders_archive");
    await test.stack.refresh({ expectNoChanges: true });
    await test.stack.preview({ expectNoChanges: true });
  });

  it("an update of a working flow to a missing connection fails up naming the input, reading only the new id; the working flow stays", async () => {
    const id = String(outputs.flowedId!.value);
    const before = await recorded("flowed");
    const version = (await service.api("GET", `/packages/${id}`)).body.version;
    flowedArgs = { ...flowedArgs, dataFlow: flowTo(MISSING) };
    await service.resetRequests();
    expect(await failureOf(test.stack.up())).toContain(MISSING_CONNECTION);
    // The source's connection was in the flow already: only the new id is read.
    expect(await service.calls()).toEqual([`GET /connections/${MISSING}`]);
    expect(await service.writeRequests()).toEqual([]);
    expect(connectionsOf((await exported(id)).data_flow_json)).toEqual({ rows: WAREHOUSE.id, lake: LAKE.id });
    expect((await service.api("GET", `/packages/${id}`)).body.version).toBe(version);
    expect(await recorded("flowed")).toEqual(before);
    flowedArgs = { ...flowedArgs, dataFlow: flowTo(LAKE.id) };
    await service.resetRequests();
    await test.stack.preview({ expectNoChanges: true });
    expect(await service.calls()).toEqual([]);
  });

  it("a Pipeline's flow naming a missing connection fails up the same way, on its package: no child is made", async () => {
    pipelineFlow = flowTo(MISSING);
    await service.resetRequests();
    const failure = await failureOf(test.stack.up());
    expect(failure).toContain(MISSING_CONNECTION);
    expect(failure).toContain("rollup-package");
    expect(await service.writeRequests()).toEqual([]);
    expect(await activeNamed(`rollup ${surface}`)).toEqual([]);
    expect(await recorded("rollup-package")).toBeUndefined();
    expect(await recorded("rollup-schedule")).toBeUndefined();
    pipelineFlow = undefined;
  });

  it("a Pipeline given a template declares its package from it, connected and validated, with the template's variables unless it gives its own", async () => {
    pipelineTemplate = { id: DAILY_ROLLUP, sourceConnectionId: WAREHOUSE.id, destinationConnectionId: LAKE.id };
    await up();
    const id = String(outputs.pipelinePackageId!.value);
    expect(connectionsOf((await exported(id)).data_flow_json)).toEqual({ events: WAREHOUSE.id, warehouse: LAKE.id });
    const made = (await service.api("GET", `/packages/${id}`)).body;
    expect(made.name).toBe(`rollup ${surface}`);
    expect(made.variables).toEqual({ day: "2026-01-01" });
    pipelineVariables = { day: "'2026-02-01'" };
    await up();
    expect((await service.api("GET", `/packages/${id}`)).body.variables).toEqual({ day: "'2026-02-01'" });
    await service.resetRequests();
    await test.stack.preview({ expectNoChanges: true });
    expect(await service.calls()).toEqual([]);
    await test.stack.destroy();
    expect((await service.api("GET", `/packages/${id}`)).body.status).toBe("archived");
  });
});
