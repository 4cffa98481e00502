/**
 * Invalid inputs, on one surface: every bad input of every kind (each kind's `badInputs`, under
 * test/kinds/) goes through that surface's check as the engine calls it, in this process: the
 * dynamic resources' provider (`providerFor`, as the dynamic provider host calls it) and the
 * plugin's `Check` handler (as its gRPC server serves it). Each failure is read as the engine
 * prints it, and must name the offending input and the rule, with no stack trace and no secret.
 *
 * One bad input per kind (its first) also goes through the real engine: the preview fails
 * printing what the check said, and nothing reaches the service. The engine stops a preview at
 * the first invalid resource, so each is a preview of its own, on one stack, taking the next by
 * swapping the program it runs. Each surface has a test file of its own (bad-input-dynamic and
 * bad-input-plugin), so the two run side by side.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCE_KINDS, type ResourceKind } from "pulumi-etl/plugin";
import { type BadInput, KIND_TESTS } from "../kinds";
import { checkAsTheEngineShows } from "./bad-input-check";
import { createTestStack, failureOfInline, type TestStack } from "./engine";
import { startTestEmulator, type Emulator } from "./service";
import { declare, type Surface } from "./surfaces";

export type Case = BadInput & { kind: ResourceKind };

/** Every kind's bad inputs. */
export const CASES: Case[] = RESOURCE_KINDS.flatMap((kind) => KIND_TESTS[kind].badInputs.map((input) => ({ ...input, kind })));

/** The bad input of each kind that also goes through the real engine. */
const PREVIEWED: Case[] = RESOURCE_KINDS.map((kind) => ({ ...KIND_TESTS[kind].badInputs[0], kind }));

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A check failure reads "<input> must ...", "<input> is ..." or "<input> is not an input ...". */
const namesField = (field: string) => new RegExp(`(^|[^\\w.])${escapeRegExp(field)} (must|is) `, "m");

function expectRefusal(output: string, test: Case): void {
  expect(output, output).toMatch(namesField(test.field));
  expect(output).not.toMatch(/\n\s+at /);
  if (test.hidden) expect(output).not.toContain(test.hidden);
}

const label = (test: Case) => `${test.kind}: ${test.what}`;

function declareCase(test: Case, surface: Surface): void {
  const inputs = test.secret === undefined ? test.inputs : { ...test.inputs, [test.secret]: pulumi.secret(test.inputs[test.secret]) };
  declare(surface, test.kind, "subject", inputs);
}

export function describeBadInput(surface: Surface): void {
  describe(`bad input refused by the ${surface} surface's check`, () => {
    it.each(CASES.map((test) => [label(test), test] as const))("%s: the check's failure names the input and the rule", async (_, test) => {
      expectRefusal((await checkAsTheEngineShows(surface, test)).output, test);
    });
  });

  describe(`bad input through the real engine, on the ${surface} surface`, { timeout: 300_000 }, () => {
    let service: Emulator;
    let test: TestStack | undefined;
    const outcomes = new Map<Case, string>();

    beforeAll(async () => {
      service = await startTestEmulator();
      await service.resetRequests();
      let current: Case | undefined;
      test = await createTestStack(`bad-input-${surface}`, async () => declareCase(current!, surface), service, {}, { plugin: surface === "plugin" });
      for (current of PREVIEWED) outcomes.set(current, await failureOfInline(() => test!.stack.preview()));
    }, 300_000);

    afterAll(async () => {
      test?.dispose();
      await service?.emulator.close();
    });

    it.each(PREVIEWED.map((test) => [label(test), test] as const))("%s fails the preview printing what the check said", async (_, test) => {
      const output = outcomes.get(test) ?? "";
      expectRefusal(output, test);
      for (const reason of (await checkAsTheEngineShows(surface, test)).reasons) expect(output).toContain(reason);
    });

    it("no preview made an API call", async () => {
      expect(await service.requests()).toEqual([]);
    });
  });
}
