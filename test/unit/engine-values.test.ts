/** The provider's own recognition of program values agrees with @pulumi/pulumi's. */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { isCustomResource, isOutput, UNKNOWN_VALUE } from "../../provider/engine-values";

describe("values of a Pulumi program", () => {
  it("the unknown placeholder is the SDK's", () => {
    expect(UNKNOWN_VALUE).toBe(pulumi.runtime.unknownValue);
  });

  it.each([
    ["an Output", pulumi.output(1)],
    ["a secret Output", pulumi.secret("s")],
    ["a number", 1],
    ["null", null],
    ["a plain object", { __pulumiOutput: "yes" }],
  ])("isOutput agrees on %s", (_, value) => {
    expect(isOutput(value)).toBe(pulumi.Output.isInstance(value));
  });

  it("an Output is one and a plain object is not", () => {
    expect(isOutput(pulumi.output("x"))).toBe(true);
    expect(isOutput({ value: "x" })).toBe(false);
  });

  it("a custom resource is recognised, and what only resembles one is not", () => {
    const resource = Object.create(pulumi.CustomResource.prototype) as pulumi.CustomResource;
    Object.defineProperty(resource, "__pulumiCustomResource", { value: true });
    expect(pulumi.CustomResource.isInstance(resource)).toBe(true);
    expect(isCustomResource(resource)).toBe(true);
    expect(isCustomResource({ id: 1 })).toBe(pulumi.CustomResource.isInstance({ id: 1 }));
    expect(isCustomResource({ id: 1 })).toBe(false);
  });
});
