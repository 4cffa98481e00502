/**
 * Package's check and bodies: a package without a flow (no `dataFlow`, or one of no components)
 * is taken and not checked against the flow's rules; the connection types a flow gives are
 * checked at preview when the service's catalogue decides, and against the account when sent.
 */
import { describe, expect, it } from "vitest";
import type { ApiRequest, RequestFn } from "../../../provider/client/http";
import { NotFoundError } from "../../../provider/client/errors";
import { refuseMistypedConnections } from "../../../provider/resources/package/connection-types";
import { tableOperations, type PackageInputs, type PackageOutputs } from "../../../provider/resources/package/fields";
import { packageImplementation } from "../../../provider/resources/package/implementation";
import { referenceReads } from "../../../provider/resources/shared/referenced-objects";
import { expectedFailure } from "../check-failure";

const check = (news: Record<string, unknown>) => packageImplementation.check({}, news);
const EMPTY = { components: [], edges: [] };
const flowWith = (source: Record<string, unknown>, destination: Record<string, unknown> = { id: 303 }) => ({
  components: [
    { name: "rows", type: "source", connection: source, table: "orders" },
    { name: "lake", type: "destination", connection: destination, path: "orders/" },
  ],
  edges: [{ from: "rows", to: "lake" }],
});

describe("Package without a flow", () => {
  it.each([
    ["no dataFlow", { name: "draft" }],
    ["a flow of no components", { name: "draft", dataFlow: EMPTY }],
    [
      "the export document of a package without a flow",
      { name: "draft", dataFlow: JSON.stringify({ name: "draft", flow_type: "dataflow", data_flow_json: EMPTY }) },
    ],
  ])("is taken with %s, validate left at its default", async (_, inputs) => {
    expect(await check(inputs)).toMatchObject({ ok: true });
  });

  it("is created without data_flow_json, compares equal to an empty flow, and reads back with no dataFlow input", () => {
    const omitted = tableOperations.inputSchema.parse({ name: "draft" }) as PackageInputs;
    expect(tableOperations.createBody(omitted)).toEqual({ name: "draft", flow_type: "dataflow" });
    const outputs = tableOperations.outputs({ id: 9, name: "draft", flow_type: "dataflow", data_flow_json: EMPTY } as never, omitted) as PackageOutputs;
    expect(outputs.dataFlow).toEqual(EMPTY);
    expect(tableOperations.diff(outputs, omitted).changes).toBe(false);
    expect(tableOperations.diff(outputs, tableOperations.inputSchema.parse({ name: "draft", dataFlow: EMPTY }) as PackageInputs).changes).toBe(false);
    expect(tableOperations.realignedInputs(outputs)).toEqual({ name: "draft" });
  });

  it("sends an empty flow when a flow is taken away", () => {
    const olds = tableOperations.outputs(
      { id: 9, name: "p", flow_type: "dataflow", data_flow_json: flowWith({ id: 301 }) } as never,
      tableOperations.inputSchema.parse({ name: "p", dataFlow: flowWith({ id: 301 }) }) as PackageInputs,
    );
    expect(tableOperations.updateBody(olds, tableOperations.inputSchema.parse({ name: "p" }) as PackageInputs)).toEqual({ data_flow_json: EMPTY });
  });
});

describe("Package check of a flow's connections", () => {
  it.each<[Record<string, unknown>, string, string]>([
    [{ name: "p", dataFlow: flowWith({ id: 0 }) }, "dataFlow.components.0.connection.id", "dataFlow.components.0.connection.id must be a positive integer"],
    [{ name: "p", dataFlow: flowWith({ id: -3 }) }, "dataFlow.components.0.connection.id", "must be a positive integer"],
    [
      { name: "p", dataFlow: flowWith({ id: 301, type: "postgress" }) },
      "dataFlow",
      'dataFlow is invalid: source "rows" gives connection.type "postgress", which is no connection type (rule connection-type)',
    ],
    [
      { name: "p", dataFlow: flowWith({ id: 301 }, { id: 306, type: "salesforce" }) },
      "dataFlow",
      'dataFlow is invalid: destination "lake" gives connection.type "salesforce", a crm platform connection, which cannot be written to (rule connection-type)',
    ],
  ])("fails %j on %s", async (inputs, property, reason) => {
    const result = await check(inputs);
    expect(!result.ok && result.failures).toContainEqual(expectedFailure(inputs, property, reason));
  });

  it("says a component's type left out is required, and lists the types when a flow's JSON text gives a wrong one", async () => {
    const untyped = { name: "p", dataFlow: { components: [{ name: "rows", connection: { id: 301 } }], edges: [] } };
    expect(await check(untyped)).toMatchObject({
      ok: false,
      failures: [expectedFailure(untyped, "dataFlow.components.0.type", "dataFlow.components.0.type is required")],
    });
    const text = { name: "p", dataFlow: JSON.stringify({ components: [{ name: "rows", type: "pivot" }], edges: [] }) };
    const result = await check(text);
    expect(!result.ok && result.failures[0]!.reason).toMatch(/^dataFlow\.components\.0\.type must be one of "source", /);
  });

  it("takes a connection.type the catalogue allows for the role", async () => {
    expect(await check({ name: "p", dataFlow: flowWith({ id: 301, type: "postgres" }, { id: 303, type: "s3" }) })).toMatchObject({ ok: true });
  });
});

describe("Package connection types against the account", () => {
  const TYPES: Record<string, string> = { "301": "postgres", "303": "s3" };
  function account(): { request: RequestFn; paths: string[] } {
    const paths: string[] = [];
    const request = (async (call: ApiRequest) => {
      const path = (call as { path: string }).path;
      paths.push(path);
      const id = path.split("/").at(-1)!;
      const type = TYPES[id];
      if (type === undefined) throw new NotFoundError({ status: 404, request: { method: "GET", url: path, headers: {} }, serviceMessage: "Not found" });
      return { status: 200, headers: {}, body: { id: Number(id), name: `c${id}`, type, created_at: "", updated_at: "", url: "" } };
    }) as RequestFn;
    return { request, paths };
  }

  it("refuses a type the connection does not have, naming the component and the input", async () => {
    const { request } = account();
    const flow = flowWith({ id: 301, type: "mysql" }, { id: 303, type: "s3" }) as never;
    await expect(refuseMistypedConnections(referenceReads(request), flow)).rejects.toThrow(
      'dataFlow is invalid: component "rows" gives connection.type "mysql", but connection 301 is a postgres connection; give the connection\'s own type, or leave connection.type out',
    );
  });

  it("reads each connection once, only for components that give a type, and leaves one gone since the flow named it to the validation", async () => {
    const { request, paths } = account();
    const flow = flowWith({ id: 301, type: "postgres" }, { id: 999, type: "s3" }) as never;
    await expect(refuseMistypedConnections(referenceReads(request), flow)).resolves.toBeUndefined();
    expect(paths).toEqual(["/connections/301", "/connections/999"]);
    const untyped = account();
    await refuseMistypedConnections(referenceReads(untyped.request), flowWith({ id: 301 }) as never);
    expect(untyped.paths).toEqual([]);
  });

  it("takes the connections the operation's check of missing ids already read", async () => {
    const { request, paths } = account();
    const reads = referenceReads(request);
    await reads.find("connection", 301);
    await refuseMistypedConnections(reads, flowWith({ id: 301, type: "postgres" }, { id: 303, type: "s3" }) as never);
    expect(paths).toEqual(["/connections/301", "/connections/303"]);
  });
});

describe("Package made from a template", () => {
  const TEMPLATE_FLOW = {
    components: [
      { name: "source", type: "source", table: "source_table" },
      { name: "destination", type: "destination", table: "destination_table" },
    ],
    edges: [{ from: "source", to: "destination" }],
  };
  const given = { name: "copy", templateId: 1, sourceConnectionId: "301", destinationConnectionId: 302 };

  it("sends the template and neither a flow nor the connections on create", () => {
    const inputs = tableOperations.inputSchema.parse(given) as PackageInputs;
    expect(tableOperations.createBody(inputs)).toEqual({ name: "copy", flow_type: "dataflow", package_template_id: 1 });
  });

  it.each([
    [{ name: "copy", templateId: 1, sourceConnectionId: 301 }, "destinationConnectionId", "is required with `templateId`"],
    [{ ...given, dataFlow: EMPTY }, "dataFlow", "must be left out with `templateId`"],
    [{ name: "own", dataFlow: EMPTY, sourceConnectionId: 301 }, "sourceConnectionId", "is only for a package made from a template"],
  ])("%j is refused, naming %s", async (inputs, property, rule) => {
    expect(await check(inputs)).toMatchObject({ failures: [expectedFailure(inputs, property, rule)] });
  });

  it("takes a template without connections when validate is false", async () => {
    expect(await check({ name: "copy", templateId: 1, validate: false })).toMatchObject({ ok: true });
  });

  it("compares the connections of the flow read, and neither its other parts nor what the template filled in", () => {
    const inputs = tableOperations.inputSchema.parse(given) as PackageInputs;
    const connected = {
      components: [
        { ...TEMPLATE_FLOW.components[0]!, connection: { id: 301 }, table: "edited_in_the_web_application" },
        { ...TEMPLATE_FLOW.components[1]!, connection: { id: 302 } },
      ],
      edges: TEMPLATE_FLOW.edges,
    };
    const record = { id: 9, name: "copy", description: "the template's", variables: { day: "1" }, flow_type: "dataflow", data_flow_json: connected };
    const outputs = tableOperations.outputs(record as never, inputs) as PackageOutputs;
    expect(tableOperations.diff(outputs, inputs).changes).toBe(false);
    const moved = tableOperations.outputs(
      {
        ...record,
        data_flow_json: { ...connected, components: [{ ...connected.components[0]!, connection: { id: 303 } }, connected.components[1]!] },
      } as never,
      inputs,
    );
    expect(tableOperations.diff(moved as PackageOutputs, inputs).detailed).toEqual({ sourceConnectionId: "update" });
    expect(
      tableOperations.diff(tableOperations.outputs({ ...record, data_flow_json: TEMPLATE_FLOW } as never, inputs) as PackageOutputs, inputs).detailed,
    ).toEqual({
      sourceConnectionId: "update",
      destinationConnectionId: "update",
    });
  });
});
