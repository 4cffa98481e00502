/**
 * Invalid inputs through the real engine, on one surface: every case of bad-input-cases.ts fails
 * `preview` with the offending input named, before any API call. The engine stops a preview at
 * the first invalid resource, so each case is a preview of its own: the cases run on one stack,
 * taking the next case by swapping the program it runs. Each surface has a test file of its own
 * (bad-input-dynamic and bad-input-plugin), so the two run side by side.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CASES, type Case } from "./bad-input-cases";
import { createTestStack, failureOfInline, type TestStack } from "./engine";
import { startLocalService, type LocalService } from "./service";
import { declare, type Surface } from "./surfaces";

function declareCase(test: Case, surface: Surface): void {
  const inputs = test.secret === undefined ? test.inputs : { ...test.inputs, [test.secret]: pulumi.secret(test.inputs[test.secret]) };
  declare(surface, test.resource, "subject", inputs);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A check failure reads "<input> must ...", "<input> is ..." or "<input> is not an input ...". */
const namesField = (field: string) => new RegExp(`(^|[^\\w.])${escapeRegExp(field)} (must|is) `, "m");

export function describeBadInput(surface: Surface): void {
  describe(`bad input through the real engine, on the ${surface} surface`, { timeout: 300_000 }, () => {
    let service: LocalService;
    let test: TestStack | undefined;
    const outcomes = new Map<Case, string>();

    beforeAll(async () => {
      service = await startLocalService();
      await service.resetRequests();
      let current: Case | undefined;
      test = await createTestStack(`bad-input-${surface}`, async () => declareCase(current!, surface), service, {}, { plugin: surface === "plugin" });
      for (current of CASES) outcomes.set(current, await failureOfInline(() => test!.stack.preview()));
    }, 600_000);

    afterAll(async () => {
      test?.dispose();
      await service?.emulator.close();
    });

    it.each(CASES.map((test) => [`${test.resource}: ${test.what}`, test] as const))("%s fails the preview naming the input", (_, test) => {
      const output = outcomes.get(test) ?? "";
      expect(output, output).toMatch(namesField(test.field));
      expect(output).not.toMatch(/\n\s+at /);
      if (test.hidden) expect(output).not.toContain(test.hidden);
    });

    it("no preview made an API call", async () => {
      expect(await service.requests()).toEqual([]);
    });
  });
}
