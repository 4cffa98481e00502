/**
 * Where the API key lands, as docs/installation-configuration.md promises: set with `pulumi config set --secret`, Pulumi
 * stores it only encrypted (checked in test/kinds/public-key/engine.test.ts); given as `ETL_API_KEY` instead, it
 * is nowhere in the state or the stack's files, not even encrypted.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PublicKey } from "pulumi-etl";
import { createTestStack, type TestStack } from "../support/engine";
import { startTestEmulator, type Emulator } from "../support/service";
import { filesUnder, freshEd25519Key } from "../support/soak";

describe("the API key given in the environment", { timeout: 120_000 }, () => {
  let service: Emulator;
  let test: TestStack;

  beforeAll(async () => {
    service = await startTestEmulator();
    const key = freshEd25519Key("env@test");
    test = await createTestStack("env-key", async () => void new PublicKey("key", { publicKey: key }), service, { ETL_API_KEY: service.apiKey });
    await test.stack.removeConfig("etl:apiKey");
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("works, and leaves no trace of the key in the state or any file of the stack", async () => {
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
    const stateFile = path.join(test.workDir, "backend", ".pulumi", "stacks", "etl-env-key", "test.json");
    const checkpoint = JSON.parse(readFileSync(stateFile, "utf8")).checkpoint;
    const provider = checkpoint.latest.resources.find((r: { type: string }) => r.type === "pulumi:providers:pulumi-nodejs");
    expect(provider.inputs).not.toHaveProperty("etl:apiKey");
    const encoded = Buffer.from(`${service.apiKey}:`).toString("base64");
    for (const file of filesUnder(test.workDir)) {
      const text = readFileSync(file, "latin1");
      expect(text, file).not.toContain(service.apiKey);
      expect(text, file).not.toContain(encoded);
    }
    await test.stack.destroy();
  });
});
