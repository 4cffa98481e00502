/**
 * Packages without a flow through the real engine, on both surfaces: made without `dataFlow`
 * (no validation asked for, which the service would fail), an unchanged preview and refresh,
 * the same package given an empty flow previewing nothing; one made on the service without a
 * flow imported by id (`pulumi import` and the `import` option on the plugin, `importId` on both) previewing
 * empty; a flow taken away sent as an empty one. And a flow whose `connection.type` contradicts
 * the connection refused before the create, naming the component and the input.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutputMap } from "@pulumi/pulumi/automation";
import { createTestStack, failureOf, type TestStack } from "../../support/engine";
import { startTestEmulator, type Emulator } from "../../support/service";
import { declare, SURFACES, typeOf, type Surface } from "../../support/surfaces";

const WAREHOUSE = { id: 301, name: "warehouse", type: "postgres" };
const LAKE = { id: 302, name: "lake", type: "s3" };
const EMPTY = { components: [], edges: [] };
const FLOW = {
  components: [
    { name: "rows", type: "source", connection: { id: WAREHOUSE.id }, table: "orders" },
    { name: "lake", type: "destination", connection: { id: LAKE.id }, path: "orders/" },
  ],
  edges: [{ from: "rows", to: "lake" }],
};

describe.each(SURFACES)("a package without a flow on the %s surface", { timeout: 300_000 }, (surface: Surface) => {
  let service: Emulator;
  let test: TestStack;
  let outputs: OutputMap;
  /** The packages the program declares, by resource name. */
  let declared: Record<string, { args: Record<string, unknown>; importing?: string }> = {};
  /** Made on the service without a flow, as the web application makes a package first. */
  const made: string[] = [];

  const exported = async (id: unknown) => (await service.api("GET", `/packages/${String(id)}/export`)).body;
  const up = async () => (outputs = (await test.stack.up()).outputs);

  beforeAll(async () => {
    service = await startTestEmulator({ account: { connections: [WAREHOUSE, LAKE] } });
    for (const name of ["drafted", "imported", "adopted"]) {
      const response = await service.api("POST", "/packages", { name });
      expect(response.status).toBe(201);
      made.push(String(response.body.id));
    }
    test = await createTestStack(
      `empty-package-${surface}`,
      async () => {
        const result: Record<string, unknown> = {};
        for (const [name, { args, importing }] of Object.entries(declared)) {
          const pkg = declare(surface, "Package", name, args, importing === undefined ? undefined : { import: importing });
          Object.assign(result, { [`${name}Id`]: pkg.id, [`${name}Flow`]: pkg.dataFlow, [`${name}Validation`]: pkg.validationStatus });
        }
        return result;
      },
      service,
      {},
      { plugin: surface === "plugin" },
    );
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("up makes it with one call and no validation; refresh after finds no change, an empty flow given proposes nothing", async () => {
    declared = { ...declared, draft: { args: { name: "draft" } } };
    await service.resetRequests();
    await up();
    expect(await service.calls()).toEqual(["POST /packages"]);
    expect(outputs.draftFlow!.value).toEqual(EMPTY);
    expect(outputs.draftValidation?.value).toBeUndefined();
    expect((await exported(outputs.draftId!.value)).data_flow_json).toEqual(EMPTY);
    // The unchanged preview after an up of a package without a flow ends the flow test below.
    await test.stack.refresh({ expectNoChanges: true });
    await service.resetRequests();
    declared = { draft: { args: { name: "draft", dataFlow: EMPTY } } };
    await test.stack.preview({ expectNoChanges: true });
    expect(await service.writeRequests()).toEqual([]);
  });

  it("one made on the service without a flow, imported by id, previews empty", async () => {
    const [drafted, imported, adopted] = made;
    await service.resetRequests();
    // The `import` option and `pulumi import` need a provider the engine can reach without the
    // program: the plugin's. A dynamic resource adopts by `importId`.
    if (surface === "plugin") {
      await test.stack.import({ resources: [{ type: typeOf("plugin", "Package"), name: "drafted", id: drafted! }], generateCode: false });
      declared = { ...declared, drafted: { args: { name: "drafted" } }, imported: { args: { name: "imported" }, importing: imported } };
    }
    declared = { ...declared, adopted: { args: { name: "adopted", importId: adopted } } };
    await up();
    expect(outputs.adoptedId!.value).toBe(adopted);
    expect(outputs.adoptedFlow!.value).toEqual(EMPTY);
    if (surface === "plugin") expect(outputs.importedFlow!.value).toEqual(EMPTY);
    await test.stack.preview({ expectNoChanges: true });
    if (surface === "plugin") {
      // With the `import` option gone too: the dynamic surface's program has none to drop.
      declared = Object.fromEntries(Object.entries(declared).map(([name, { args }]) => [name, { args }]));
      await test.stack.preview({ expectNoChanges: true });
    }
    expect(await service.writeRequests()).toEqual([]);
  });

  it("a flow given is validated; taken away, an empty flow is sent and nothing validated, and an unchanged preview after makes no call", async () => {
    declared = { ...declared, draft: { args: { name: "draft", dataFlow: FLOW } } };
    const id = String(outputs.draftId!.value);
    await service.resetRequests();
    await up();
    const calls = await service.calls();
    // The flow's connections are new to the package: read before it is sent.
    expect(calls.slice(0, 2).sort()).toEqual([`GET /connections/${WAREHOUSE.id}`, `GET /connections/${LAKE.id}`]);
    expect(calls.slice(2)).toEqual([`PUT /packages/${id}`, `POST /packages/${id}/validate`]);
    expect(outputs.draftValidation!.value).toBe("completed");
    declared = { ...declared, draft: { args: { name: "draft" } } };
    await service.resetRequests();
    await up();
    expect(await service.calls()).toEqual([`PUT /packages/${id}`]);
    expect((await exported(id)).data_flow_json).toEqual(EMPTY);
    await service.resetRequests();
    await test.stack.preview({ expectNoChanges: true });
    expect(await service.calls()).toEqual([]);
  });

  it("a connection.type the connection does not have fails up before the create, naming the component and the input", async () => {
    const mistyped = { ...FLOW, components: [{ ...FLOW.components[0]!, connection: { id: WAREHOUSE.id, type: "mysql" } }, FLOW.components[1]!] };
    declared = { ...declared, mistyped: { args: { name: "mistyped", dataFlow: mistyped } } };
    await service.resetRequests();
    const output = await failureOf(test.stack.up());
    expect(output).toContain('dataFlow is invalid: component "rows" gives connection.type "mysql", but connection 301 is a postgres connection');
    expect(output).not.toMatch(/\n\s+at /);
    expect(await service.writeRequests()).toEqual([]);
  });
});
