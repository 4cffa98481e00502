/**
 * A dynamic provider process loads the one kind it serves (provider/resources/declaration-of.ts),
 * finding it by the folder and export every kind of the registry has; any other name is no kind.
 * Run on the compiled package, where the provider process runs it.
 */
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { RESOURCE_KINDS, RESOURCES } from "pulumi-etl";

const COMPILED = path.resolve(import.meta.dirname, "../../dist/provider/resources/declaration-of.js");
const { declarationOf } = require(COMPILED) as typeof import("../../provider/resources/declaration-of");

describe("a kind's declaration loaded alone", () => {
  it.each(RESOURCE_KINDS)("%s is the registry's declaration", (kind) => {
    expect(declarationOf(kind)).toBe(RESOURCES[kind]);
  });

  it.each(["Nope", "publicKey", "Public-Key", "../registry", "Shared", "Constructor", ""])("%j is no kind", (name) => {
    expect(declarationOf(name)).toBeUndefined();
  });
});
