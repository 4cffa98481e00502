/**
 * Resources given as inputs on the plugin: what a reference stands for at each input that takes
 * one, what is refused and how, and how the schema types those inputs.
 */
import { describe, expect, it } from "vitest";
import * as pulumi from "@pulumi/pulumi";
import { packageSchema, typeToken } from "pulumi-etl/plugin";
import { FoundReference, knownConnectionTypes, noteChecked, resolveReferences } from "../../provider/plugin/references";
import { noCallsContext } from "../support/context";

const UNKNOWN = pulumi.runtime.unknownValue;
const urnOf = (kind: string, name: string) => `urn:pulumi:test::refs::${typeToken(kind)}::${name}`;
const found = (kind: string, name: string, id: unknown, ...path: Array<string | number>) => new FoundReference({ urn: urnOf(kind, name), id }, path);

describe("resolveReferences", () => {
  const lookup = { types: knownConnectionTypes(), context: noCallsContext };
  noteChecked(lookup.types, "Connection", urnOf("Connection", "warehouse"), { type: "postgres", name: "warehouse" });

  it("gives a connection's id and the type its own check gave, in a list and at one end of a delivery", async () => {
    const group = await resolveReferences(lookup, "ConnectionGroup", { name: "g", connections: [found("Connection", "warehouse", "301", "connections", 0)] });
    expect(group).toEqual({ values: { name: "g", connections: [{ id: "301", type: "postgres" }] }, failures: [] });
    const delivery = await resolveReferences(lookup, "Delivery", { source: { connection: found("Connection", "warehouse", "301", "source", "connection") } });
    expect(delivery.values).toEqual({ source: { connection: { id: "301", type: "postgres" } } });
  });

  it("keeps a connection still to be made unknown, with its type when its check gave one", async () => {
    const known = await resolveReferences(lookup, "ConnectionGroup", { connections: [found("Connection", "warehouse", UNKNOWN, "connections", 0)] });
    expect(known.values).toEqual({ connections: [{ id: UNKNOWN, type: "postgres" }] });
    const unseen = await resolveReferences(lookup, "ConnectionGroup", { connections: [found("Connection", "elsewhere", UNKNOWN, "connections", 0)] });
    expect(unseen.values).toEqual({ connections: [UNKNOWN] });
  });

  it("gives a package's and a cluster's id, and an unknown while it is to be made", async () => {
    const run = await resolveReferences(lookup, "JobRun", {
      clusterId: found("Cluster", "compute", "202", "clusterId"),
      packageId: found("Package", "copy", UNKNOWN, "packageId"),
    });
    expect(run).toEqual({ values: { clusterId: "202", packageId: UNKNOWN }, failures: [] });
    const schedule = await resolveReferences(lookup, "Schedule", {
      task: { packages: [{ packageId: found("Package", "copy", "105", "task", "packages", 0, "packageId") }] },
    });
    expect(schedule.values).toEqual({ task: { packages: [{ packageId: "105" }] } });
  });

  it("refuses a resource of another kind, naming the input: top-level by its name, nested in the reason", async () => {
    const run = await resolveReferences(lookup, "JobRun", { clusterId: found("Package", "copy", "105", "clusterId"), packageId: 101 });
    expect(run.failures).toEqual([
      { property: "clusterId", reason: "clusterId must be a Cluster resource, or a cluster's id, got a resource of type etl:index:Package" },
    ]);
    const group = await resolveReferences(lookup, "ConnectionGroup", { connections: [found("Package", "copy", "105", "connections", 0)] });
    expect(group.failures).toEqual([
      { property: "", reason: "connections.0 must be a Connection resource, or a connection's id and type, got a resource of type etl:index:Package" },
    ]);
  });

  it("gives an input that does not take a resource the resource's id, as before", async () => {
    const values = await resolveReferences(lookup, "Package", {
      dataFlow: { components: [{ connection: { id: found("Connection", "warehouse", "301", "dataFlow", "components", 0, "connection", "id") } }] },
    });
    expect(values.values).toEqual({ dataFlow: { components: [{ connection: { id: "301" } }] } });
  });
});

describe("the schema of inputs that take a resource", () => {
  const schema = packageSchema() as {
    resources: Record<string, { inputProperties: Record<string, any>; properties: Record<string, any> }>;
    types: Record<string, { properties: Record<string, any>; required?: string[] }>;
  };
  const resource = (kind: string) => schema.resources[typeToken(kind)]!;
  const refTo = (kind: string) => ({ $ref: `#/resources/${typeToken(kind)}` });

  it("types a connection as the Connection resource or its id and type", () => {
    const items = resource("ConnectionGroup").inputProperties.connections.items;
    expect(items.oneOf).toEqual([refTo("Connection"), { $ref: "#/types/etl:index:ConnectionGroupConnection" }]);
    expect(schema.types["etl:index:ConnectionGroupConnection"]).toMatchObject({
      properties: { id: { oneOf: [{ type: "integer" }, { type: "string" }] }, type: { type: "string" } },
      required: ["id", "type"],
    });
    const source = schema.types[resource("Delivery").inputProperties.source.$ref.replace("#/types/", "")]!;
    expect(source.properties.connection.oneOf).toEqual([refTo("Connection"), { $ref: "#/types/etl:index:DeliveryConnection" }]);
  });

  it("types an id as the resource or the id, and leaves the output as the service gives it", () => {
    expect(resource("JobRun").inputProperties.clusterId.oneOf).toEqual([refTo("Cluster"), { type: "integer" }, { type: "string" }]);
    expect(resource("JobRun").inputProperties.packageId.oneOf).toEqual([refTo("Package"), { type: "integer" }, { type: "string" }]);
    expect(resource("JobRun").properties.clusterId.oneOf).toEqual([{ type: "integer" }, { type: "string" }]);
    expect(JSON.stringify(resource("ConnectionGroup").properties.connections)).not.toContain("#/resources/");
  });
});
