/**
 * Invalid inputs through the real engine: every case fails `preview` with the offending input
 * named, before any API call, across every resource and on both surfaces; invalid provider
 * configuration fails the update naming the setting. Each surface runs its cases on one stack,
 * taking the next case by swapping the program it runs.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PublicKey } from "pulumi-etl";
import { RESOURCE_KINDS } from "pulumi-etl/plugin";
import { createTestStack, failureOfInline, type TestStack } from "../support/engine";
import { startLocalService, type LocalService } from "../support/service";
import { CASES, KEY, type Case } from "../support/bad-input-cases";
import { declare, SURFACES, type Surface } from "../support/surfaces";

function declareCase(test: Case, surface: Surface): void {
  const inputs = test.secret === undefined ? test.inputs : { ...test.inputs, [test.secret]: pulumi.secret(test.inputs[test.secret]) };
  declare(surface, test.resource, "subject", inputs);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A check failure reads "<input> must ...", "<input> is ..." or "<input> is not an input ...". */
const namesField = (field: string) => new RegExp(`(^|[^\\w.])${escapeRegExp(field)} (must|is) `, "m");

describe("bad input through the real engine", { timeout: 300_000 }, () => {
  let service: LocalService;
  const stacks: TestStack[] = [];

  beforeAll(async () => {
    service = await startLocalService();
    await service.resetRequests();
  });

  afterAll(async () => {
    for (const s of stacks) s.dispose();
    await service?.emulator.close();
  });

  it("has at least 30 cases, every resource kind among them", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30);
    expect([...new Set(CASES.map((t) => t.resource))].sort()).toEqual([...RESOURCE_KINDS].sort());
  });

  /** Every case on both surfaces: the plugin checks with the same code, but failures travel another way. */
  describe.each(SURFACES)("on the %s surface", (surface) => {
    const outcomes = new Map<Case, string>();

    beforeAll(async () => {
      let current: Case | undefined;
      const test = await createTestStack(`bad-input-${surface}`, async () => declareCase(current!, surface), service, {}, { plugin: surface === "plugin" });
      stacks.push(test);
      for (current of CASES) outcomes.set(current, await failureOfInline(() => test.stack.preview()));
    }, 600_000);

    it.each(CASES.map((test) => [`${test.resource}: ${test.what}`, test] as const))("%s fails the preview naming the input", (_, test) => {
      const output = outcomes.get(test) ?? "";
      expect(output, output).toMatch(namesField(test.field));
      expect(output).not.toMatch(/\n\s+at /);
      if (test.hidden) expect(output).not.toContain(test.hidden);
    });
  });

  it("no preview made an API call", async () => {
    expect(await service.requests()).toEqual([]);
  });

  describe("invalid configuration", () => {
    const cases: Array<[string, (stack: TestStack) => Promise<void>, RegExp]> = [
      [
        "missing etl:apiKey",
        (t) => t.stack.removeConfig("etl:apiKey"),
        /etl:apiKey is not set \(run `pulumi config set --secret etl:apiKey <value>` or set ETL_API_KEY\)/,
      ],
      ["malformed etl:apiUrl", (t) => t.stack.setConfig("etl:apiUrl", { value: "http//127.0.0.1 4010" }), /etl:apiUrl must be an absolute URL/],
      ["ftp:// etl:apiUrl", (t) => t.stack.setConfig("etl:apiUrl", { value: "ftp://127.0.0.1:4010" }), /etl:apiUrl must use http or https, got "ftp"/],
    ];
    it.each(cases)(
      "%s fails the update naming the setting, with no API call",
      async (_, breakConfig, message) => {
        const test = await createTestStack(
          "bad-config",
          async () => {
            new PublicKey("key", { publicKey: KEY });
          },
          service,
        );
        stacks.push(test);
        await breakConfig(test);
        await service.resetRequests();
        const output = await failureOfInline(() => test.stack.up());
        expect(output).toMatch(message);
        expect(output).not.toMatch(/\n\s+at /);
        expect(output).not.toContain(service.apiKey);
        expect(await service.requests()).toEqual([]);
      },
      120_000,
    );
  });
});
