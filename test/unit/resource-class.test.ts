/** The resource classes turn stack traces off while registering, and always put them back. */
import * as pulumi from "@pulumi/pulumi";
import { afterEach, describe, expect, it } from "vitest";
import * as exported from "../../provider";
import { PublicKey } from "../../provider/resources/classes";
import type { ResourceKind } from "../../provider/resources/registry";
import { withoutStackTraces } from "../../provider/resources/shared/resource-class";

const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG7gKqNO4LLqZGjzIULluAa6RhZbgiiS4Et9g1oNUvzH deploy";
const LIMIT = Error.stackTraceLimit;

describe("stack traces while a resource registers", () => {
  afterEach(() => {
    Error.stackTraceLimit = LIMIT;
  });

  it("are off until restored, and come back to what they were", () => {
    Error.stackTraceLimit = 7;
    const restore = withoutStackTraces();
    expect(Error.stackTraceLimit).toBe(0);
    restore();
    expect(Error.stackTraceLimit).toBe(7);
  });

  it("come back after a resource is declared", async () => {
    await pulumi.runtime.setMocks({
      newResource: (args) => ({ id: "1", state: args.inputs }),
      call: (args) => args.inputs,
    });
    Error.stackTraceLimit = 9;
    const key = new PublicKey("k", { publicKey: KEY });
    expect(Error.stackTraceLimit).toBe(9);
    expect(await new Promise((resolve) => key.urn.apply(resolve))).toMatch(/PublicKey::k$/);
  });

  it("come back when registering throws", () => {
    Error.stackTraceLimit = 11;
    const notAResource = {} as pulumi.Resource;
    expect(() => new PublicKey("k", { publicKey: KEY }, { parent: notAResource })).toThrow();
    expect(Error.stackTraceLimit).toBe(11);
  });
});

describe("the package's resource classes", () => {
  it("are one for every kind of the one list, each named after its kind", async () => {
    const { RESOURCE_KINDS } = await import("../../provider/resources/registry");
    for (const kind of RESOURCE_KINDS) {
      const made = (exported as Record<string, unknown>)[kind];
      expect(typeof made, kind).toBe("function");
      expect((made as { name: string }).name).toBe(kind);
    }
  });
});

// Every kind of the one list is a class of the package: a kind added to the list without its
// class fails to compile here.
true satisfies [Exclude<ResourceKind, keyof typeof exported>] extends [never] ? true : { notExported: Exclude<ResourceKind, keyof typeof exported> };
