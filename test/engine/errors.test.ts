/**
 * What a user sees when something is wrong, through the real engine: invalid inputs fail the
 * preview with the input named and no API call; bad credentials and settings fail cleanly
 * without a stack trace or the key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PublicKey } from "pulumi-etl";
import { createTestStack, failureOf, type TestStack } from "../support/engine";
import { startTestEmulator, type Emulator } from "../support/service";

const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG7gKqNO4LLqZGjzIULluAa6RhZbgiiS4Et9g1oNUvzH quickstart-deploy";

describe("errors through the real engine", { timeout: 180_000 }, () => {
  let service: Emulator;
  const stacks: TestStack[] = [];

  beforeAll(async () => {
    service = await startTestEmulator();
  });
  afterAll(async () => {
    for (const s of stacks) s.dispose();
    await service?.emulator.close();
  });

  it("an invalid input fails the preview, naming the input, before any API call", async () => {
    const test = await createTestStack(
      "bad-input",
      async () => {
        new PublicKey("bad", { publicKey: "ssh-rsa not-base64!", name: "" });
      },
      service,
    );
    stacks.push(test);
    await service.resetRequests();
    const output = await failureOf(test.stack.preview());
    expect(output).toContain("publicKey is not valid base64");
    expect(output).toContain("name must have at least 1 character(s)");
    expect(output).not.toMatch(/\n\s+at /); // no stack trace
    expect(await service.requests()).toEqual([]);
  });

  it("with the settings' proof skipped, a wrong API key fails the update with the service's answer, told apart from a wrong account, without the key or a stack trace", async () => {
    const wrongKey = "wrong-key-0f1e2d3c4b5a";
    const test = await createTestStack(
      "bad-key",
      async () => {
        new PublicKey("key", { publicKey: KEY });
      },
      { ...service, apiKey: wrongKey },
    );
    stacks.push(test);
    // The proof would fail the preview first (unreachable.test.ts): the create's own 401 is what is left to see.
    await test.stack.setConfig("etl:skipCredentialsValidation", { value: "true" });
    const output = await failureOf(test.stack.up());
    expect(output).toContain("POST /acme-test/api/user/keys failed with 401 Unauthorized: Invalid or missing credentials.");
    // The host root's account listing, which takes the key alone, tells a wrong key from a wrong account.
    expect(output).toContain("the API key itself is refused (etl:apiKey or ETL_API_KEY): it is wrong or revoked, or its user belongs to no account");
    expect(output).not.toContain(wrongKey);
    expect(output).not.toMatch(/\n\s+at /);
  });

  it("missing configuration names the setting and how to set it", async () => {
    const test = await createTestStack(
      "no-config",
      async () => {
        new PublicKey("key", { publicKey: KEY });
      },
      service,
    );
    stacks.push(test);
    await test.stack.removeConfig("etl:apiUrl");
    const output = await failureOf(test.stack.up());
    expect(output).toContain("etl:apiUrl is not set (run `pulumi config set etl:apiUrl <value>` or set ETL_API_URL)");
    expect(output).not.toMatch(/\n\s+at /);
  });

  const badSettings: Array<[string, (stack: TestStack) => Promise<void>, RegExp]> = [
    [
      "missing etl:apiKey",
      (t) => t.stack.removeConfig("etl:apiKey"),
      /etl:apiKey is not set \(run `pulumi config set --secret etl:apiKey <value>` or set ETL_API_KEY\)/,
    ],
    ["malformed etl:apiUrl", (t) => t.stack.setConfig("etl:apiUrl", { value: "http//127.0.0.1 4010" }), /etl:apiUrl must be an absolute URL/],
    ["ftp:// etl:apiUrl", (t) => t.stack.setConfig("etl:apiUrl", { value: "ftp://127.0.0.1:4010" }), /etl:apiUrl must use http or https, got "ftp"/],
  ];
  it.each(badSettings)("%s fails the update naming the setting, with no API call", async (_, breakConfig, message) => {
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
    const output = await failureOf(test.stack.up());
    expect(output).toMatch(message);
    expect(output).not.toMatch(/\n\s+at /);
    expect(output).not.toContain(service.apiKey);
    expect(await service.requests()).toEqual([]);
  });
});
