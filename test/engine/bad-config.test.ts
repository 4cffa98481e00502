/** Invalid provider configuration through the real engine: the update fails naming the setting, with no API call. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PublicKey } from "pulumi-etl";
import { KEY } from "../support/bad-input-cases";
import { createTestStack, failureOfInline, type TestStack } from "../support/engine";
import { startLocalService, type LocalService } from "../support/service";

describe("invalid configuration through the real engine", () => {
  let service: LocalService;
  const stacks: TestStack[] = [];

  beforeAll(async () => {
    service = await startLocalService();
  });

  afterAll(async () => {
    for (const s of stacks) s.dispose();
    await service?.emulator.close();
  });

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
