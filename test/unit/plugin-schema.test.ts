/**
 * The plugin's schema, made from the one list of resources and the one list of functions: every
 * kind and function in it, every input documented and typed, secrets and replacements flagged
 * as each field table says.
 */
import { describe, expect, it } from "vitest";
import { FUNCTIONS, packageSchema, RESOURCE_KINDS, typeToken } from "pulumi-etl/plugin";

type Property = { type?: string; $ref?: string; description?: string; secret?: boolean; replaceOnChanges?: boolean };
type Resource = { description: string; inputProperties: Record<string, Property>; requiredInputs: string[]; properties: Record<string, Property> };
const schema = packageSchema() as {
  name: string;
  resources: Record<string, Resource>;
  functions: Record<string, { inputs?: { properties: Record<string, Property>; required: string[] } }>;
  types: Record<string, { properties: Record<string, Property> }>;
  config: { variables: Record<string, Property> };
};
const resource = (kind: (typeof RESOURCE_KINDS)[number]) => schema.resources[typeToken(kind)]!;

describe("the plugin's schema", () => {
  it("declares every kind of the list and the Pipeline component, and nothing else, under etl:index", () => {
    expect(schema.name).toBe("etl");
    expect(Object.keys(schema.resources).sort()).toEqual([...RESOURCE_KINDS, "Pipeline"].map((kind) => `etl:index:${kind}`).sort());
    const components = Object.entries(schema.resources).filter(([, spec]) => (spec as { isComponent?: boolean }).isComponent);
    expect(components.map(([token]) => token)).toEqual(["etl:index:Pipeline"]);
  });

  it("describes every input and output of the Pipeline, its alert's settings secret", () => {
    const pipeline = schema.resources["etl:index:Pipeline"]!;
    expect(pipeline.requiredInputs.sort()).toEqual(["name", "schedule"]);
    const undocumented = [...Object.entries(pipeline.inputProperties), ...Object.entries(pipeline.properties)].filter(([, p]) => !p.description);
    expect(undocumented).toEqual([]);
    expect(schema.types["etl:index:PipelineFailureAlert"]!.properties.settings).toMatchObject({ secret: true });
    expect(Object.values(schema.types["etl:index:PipelineSchedule"]!.properties).every((p) => p.description)).toBe(true);
  });

  it("documents every output of every resource", () => {
    for (const kind of RESOURCE_KINDS) {
      const undocumented = Object.entries(resource(kind).properties)
        .filter(([, property]) => !property.description)
        .map(([name]) => name);
      expect(undocumented, kind).toEqual([]);
    }
  });

  it("documents every input of every resource, and describes each resource", () => {
    for (const kind of RESOURCE_KINDS) {
      expect(resource(kind).description.length, kind).toBeGreaterThan(20);
      const undocumented = Object.entries(resource(kind).inputProperties)
        .filter(([, property]) => !property.description)
        .map(([name]) => name);
      expect(undocumented, kind).toEqual([]);
    }
  });

  it("types inputs from their rules and outputs from the service's record", () => {
    expect(resource("Cluster").inputProperties.nodes!.type).toMatch(/^(integer|number)$/);
    expect(resource("Cluster").properties.createdAt).toMatchObject({ type: "string" });
    expect(resource("Schedule").inputProperties.enabled).toMatchObject({ type: "boolean" });
    expect(resource("Schedule").inputProperties.interval!.$ref).toBe("#/types/etl:index:ScheduleInterval");
    expect(schema.types["etl:index:ScheduleInterval"]!.properties.unit).toMatchObject({ type: "string" });
    expect(resource("Connection").inputProperties.port).toMatchObject({ type: "integer" });
  });

  it("flags secrets, required inputs and what replaces, as the field tables say", () => {
    expect(resource("Connection").inputProperties.password).toMatchObject({ secret: true });
    expect(resource("Connection").properties.password).toMatchObject({ secret: true });
    expect(resource("Hook").inputProperties.settings).toMatchObject({ secret: true });
    expect(resource("Connection").inputProperties.type).toMatchObject({ replaceOnChanges: true });
    expect(resource("Connection").inputProperties.name!.replaceOnChanges).toBeUndefined();
    expect(resource("PublicKey").requiredInputs).toEqual(["publicKey"]);
    expect(schema.config.variables.apiKey).toMatchObject({ type: "string", secret: true });
  });

  it("declares every function of the list with its arguments", () => {
    expect(Object.keys(schema.functions).sort()).toEqual(
      Object.keys(FUNCTIONS)
        .map((name) => `etl:index:${name}`)
        .sort(),
    );
    expect(schema.functions["etl:index:getPackage"]!.inputs).toMatchObject({ required: ["packageId"] });
  });
});
