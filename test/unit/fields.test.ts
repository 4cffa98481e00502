/** What one field table yields: the schema, diff, bodies, outputs and realigned inputs of a resource. */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { fieldOperations, OUTPUT, type Field } from "../../provider/resources/shared/fields";

interface WidgetRecord {
  id: number;
  name: string;
  size: number;
  zone: string;
  color: string;
  created_at: string;
}

const table = {
  name: { input: z.string().min(1), required: true, api: "widget.name", onChange: "update" },
  size: { input: z.number().int(), default: 1, api: "widget.size", onChange: "update" },
  zone: { input: z.string(), unmanagedWhenOmitted: true, api: "zone", onChange: "replace" },
  color: { input: z.string(), default: "none", sendDefault: true, api: "color", onChange: "update" },
  timeoutSeconds: { input: z.number(), default: 60, onChange: "update" },
  createdAt: OUTPUT,
} satisfies Record<string, Field<WidgetRecord>>;

const tableOperations = fieldOperations<WidgetRecord, typeof table>(table, {
  refine(inputs, ctx) {
    if (inputs.size === 0) ctx.addIssue({ code: "custom", path: ["size"], message: "must not be 0" });
  },
});

const record: WidgetRecord = { id: 7, name: "w", size: 1, zone: "eu-1", color: "none", created_at: "2026-01-01T00:00:00Z" };

describe("fieldOperations", () => {
  it("checks inputs strictly, leaves unknown values unchecked, and runs the cross-field rule", () => {
    expect(tableOperations.inputSchema.safeParse({ name: "w" }).success).toBe(true);
    expect(tableOperations.inputSchema.safeParse({ name: "w", extra: 1 }).success).toBe(false);
    expect(tableOperations.inputSchema.safeParse({ size: 2 }).success).toBe(false);
    expect(tableOperations.inputSchema.safeParse({ name: pulumi.runtime.unknownValue, size: pulumi.runtime.unknownValue }).success).toBe(true);
    const refined = tableOperations.inputSchema.safeParse({ name: "w", size: 0 });
    expect(refined.success ? [] : refined.error.issues.map((issue) => issue.path.join("."))).toEqual(["size"]);
  });

  it("sends what was given in nested request fields, and a default only where the field says so", () => {
    expect(tableOperations.createBody({ name: "w" })).toEqual({ widget: { name: "w" }, color: "none" });
    expect(tableOperations.createBody({ name: "w", size: 3, zone: "eu-2" })).toEqual({ widget: { name: "w", size: 3 }, zone: "eu-2", color: "none" });
    // Typed from the table: nested names nest, required and sent-default fields are always there.
    type Expected = { widget: { name: string; size?: number }; zone?: string; color: string };
    expectTypeOf(tableOperations.createBody({ name: "w" })).toExtend<Expected>();
    expectTypeOf<Expected>().toExtend<ReturnType<typeof tableOperations.createBody>>();
    expectTypeOf<{ widget: { size: number }; color: string }>().not.toExtend<ReturnType<typeof tableOperations.createBody>>();
  });

  it("converts a value for the API, and splits one input over several API fields", () => {
    const splitTable = {
      on: { input: z.boolean(), api: "status", toApi: (on: boolean) => (on ? "enabled" : "disabled"), writeOnly: true, onChange: "update" },
      every: {
        input: z.object({ n: z.number(), unit: z.string() }),
        api: ["every_n", "every_unit"],
        toApi: (v: { n: number; unit: string }) => [v.n, v.unit],
        writeOnly: true,
        onChange: "update",
      },
    } satisfies Record<string, Field<WidgetRecord>>;
    const split = fieldOperations<WidgetRecord, typeof splitTable>(splitTable);
    expect(split.createBody({ on: false, every: { n: 2, unit: "days" } })).toEqual({ status: "disabled", every_n: 2, every_unit: "days" });
    expect(split.updateBody({ on: false, every: { n: 2, unit: "days" } }, { on: true, every: { n: 3, unit: "days" } })).toEqual({
      status: "enabled",
      every_n: 3,
      every_unit: "days",
    });
  });

  it("reads an input the service holds from the record's field of its API name unless it is write-only, and refuses a converted one that says neither", () => {
    const writeOnlyTable = {
      name: { input: z.string(), api: "widget.name", onChange: "update" },
      secret: { input: z.string(), api: "secret", writeOnly: true, onChange: "update" },
    } satisfies Record<string, Field<WidgetRecord>>;
    const writeOnly = fieldOperations<WidgetRecord, typeof writeOnlyTable>(writeOnlyTable);
    expect(writeOnly.outputs({ ...record, name: "from-service" }, { name: "asked", secret: "s3" })).toEqual({ name: "from-service", secret: "s3" });
    const unreadable = { on: { input: z.boolean(), api: "status", toApi: (on: boolean) => String(on), onChange: "update" } } satisfies Record<
      string,
      Field<WidgetRecord>
    >;
    expect(() => fieldOperations<WidgetRecord, typeof unreadable>(unreadable)).toThrow(/field on converts its value.*read.*writeOnly/);
  });

  it("records the record and the provider's own inputs with their defaults, never undefined", () => {
    const outputs = tableOperations.outputs(record, { name: "w" });
    expect(outputs).toEqual({ name: "w", size: 1, zone: "eu-1", color: "none", createdAt: record.created_at, timeoutSeconds: 60, __inputsSet: ["name"] });
    expect(tableOperations.outputNames).toEqual(["name", "size", "zone", "color", "timeoutSeconds", "createdAt"]);
  });

  it("compares effective values: defaults stand for omitted inputs, an omitted unmanaged one is never compared", () => {
    const olds = tableOperations.outputs(record, { name: "w" });
    expect(tableOperations.diff(olds, { name: "w" })).toMatchObject({ changes: false });
    expect(tableOperations.diff(olds, { name: "w", size: 1, color: "none", timeoutSeconds: 60 })).toMatchObject({ changes: false });
    expect(tableOperations.diff(olds, { name: "w", zone: "eu-2" })).toMatchObject({ changes: true, replaces: ["zone"] });
    expect(tableOperations.diff(olds, { name: "w", timeoutSeconds: 5 })).toMatchObject({ changes: true, replaces: [] });
    expect(tableOperations.diff(olds, { name: pulumi.runtime.unknownValue as string })).toMatchObject({ changes: true });
  });

  it("puts only changed fields that update in place in a PUT, and nothing for the provider's own", () => {
    const olds = tableOperations.outputs(record, { name: "w" });
    expect(tableOperations.updateBody(olds, { name: "v", size: 1, timeoutSeconds: 5, zone: "eu-9" })).toEqual({ widget: { name: "v" } });
    expect(tableOperations.updateBody(olds, { name: "w", color: "red" })).toEqual({ color: "red" });
    expect(tableOperations.updateBody(olds, { name: "w" })).toEqual({});
  });

  it("realigns inputs after a refresh: defaults left out, a service-chosen value only when the program set it", () => {
    const drifted = { ...record, size: 4, zone: "eu-3" };
    const unset = tableOperations.readResult("7", drifted, tableOperations.outputs(record, { name: "w" }));
    expect(unset.inputs).toEqual({ name: "w", size: 4 });
    const set = tableOperations.readResult("7", drifted, tableOperations.outputs(record, { name: "w", zone: "eu-1", timeoutSeconds: 9 }));
    expect(set.inputs).toEqual({ name: "w", size: 4, zone: "eu-3", timeoutSeconds: 9 });
    expect(tableOperations.readResult("7", undefined, tableOperations.outputs(record, { name: "w" }))).toEqual({});
  });

  it("matches a found record against a create on every value the create sent", () => {
    expect(tableOperations.hasSentValues(record, { name: "w" })).toBe(true);
    expect(tableOperations.hasSentValues(record, { name: "w", zone: "eu-1", timeoutSeconds: 1 })).toBe(true);
    expect(tableOperations.hasSentValues(record, { name: "w", zone: "eu-2" })).toBe(false);
    expect(tableOperations.hasSentValues({ ...record, size: 2 }, { name: "w" })).toBe(false);
  });
});
