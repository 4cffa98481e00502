/** Every bad input of every kind is refused by the dynamic resources' check, and one per kind fails `preview` (test/support/bad-input.ts). */
import { expect, it } from "vitest";
import { RESOURCE_KINDS } from "pulumi-etl/plugin";
import { CASES, describeBadInput } from "../support/bad-input";

it("the bad inputs are at least 30, every resource kind among them", () => {
  expect(CASES.length).toBeGreaterThanOrEqual(30);
  expect([...new Set(CASES.map((test) => test.kind))].sort()).toEqual([...RESOURCE_KINDS].sort());
});

describeBadInput("dynamic");
