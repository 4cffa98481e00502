/** Every bad input of every kind fails `preview` on the dynamic resources (test/support/bad-input.ts). */
import { expect, it } from "vitest";
import { RESOURCE_KINDS } from "pulumi-etl/plugin";
import { describeBadInput } from "../support/bad-input";
import { CASES } from "../support/bad-input-cases";

it("the bad inputs are at least 30, every resource kind among them", () => {
  expect(CASES.length).toBeGreaterThanOrEqual(30);
  expect([...new Set(CASES.map((test) => test.resource))].sort()).toEqual([...RESOURCE_KINDS].sort());
});

describeBadInput("dynamic");
