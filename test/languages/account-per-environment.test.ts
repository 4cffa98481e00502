/**
 * examples/account-per-environment, run from its folder in Python through the plugin: the
 * program makes a staging account and declares a connection in it through an explicit provider
 * whose account is the new account's slug. The connection is made in the new account, an
 * unchanged preview writes nothing, and destroy deletes the connection, then the account.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "pulumi-etl/emulator";
import type { Service } from "../support/engine";
import { createExampleStack, type LanguageStack } from "../support/language-project";
import { control } from "../support/service";

const EXAMPLE = path.resolve(__dirname, "../../examples/account-per-environment");
const WRITE_METHODS = new Set(["POST", "PUT", "DELETE"]);
const PASSWORD = "staging-warehouse-pw-0003";

describe("examples/account-per-environment on the real engine", () => {
  let emulator: RunningEmulator;
  let test: LanguageStack;
  const output: string[] = [];
  const onOutput = (text: string) => output.push(text);
  const writes = async () =>
    (await control(emulator, "requests"))
      .filter((r: { method: string }) => WRITE_METHODS.has(r.method))
      .map((r: { method: string; path: string }) => `${r.method} ${r.path}`);

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, speed: 20 });
    const service: Service = { url: emulator.url, accountId: emulator.accounts[0]!.uid, apiKey: emulator.accounts[0]!.apiKey };
    test = await createExampleStack("python", EXAMPLE, service, {
      "etl-account-per-environment:warehousePassword": { value: PASSWORD, secret: true },
      "etl-account-per-environment:stagingSlug": { value: "staging-example" },
    });
  }, 600_000);

  afterAll(async () => {
    test?.dispose();
    await emulator?.close();
  });

  it("up makes the account, then the connection inside it; preview writes nothing; destroy removes both", { timeout: 600_000 }, async () => {
    await control(emulator, "requests", "DELETE");
    const up = await test.stack.up({ onOutput });
    expect(up.outputs.stagingSlug!.value).toBe("staging-example");
    expect(await writes()).toEqual(["POST /accounts", "POST /staging-example/api/connections/postgres/test", "POST /staging-example/api/connections/postgres"]);
    const state = await control(emulator, "state");
    const staging = state.accounts.find((account: { uid: string }) => account.uid === "staging-example");
    expect(staging.connections.map((c: { id: number; name: string }) => [String(c.id), c.name])).toEqual([[up.outputs.warehouseId!.value, "warehouse"]]);
    expect(
      state.accounts[0].connections.some((c: { id: number; name: string }) => c.name === "warehouse" && c.id === Number(up.outputs.warehouseId!.value)),
    ).toBe(false);

    await control(emulator, "requests", "DELETE");
    await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(await writes()).toEqual([]);

    await control(emulator, "requests", "DELETE");
    await test.stack.destroy({ onOutput });
    expect(await writes()).toEqual([`DELETE /staging-example/api/connections/postgres/${up.outputs.warehouseId!.value}`, "DELETE /accounts/staging-example"]);
    expect((await control(emulator, "state")).accounts.some((account: { uid: string }) => account.uid === "staging-example")).toBe(false);
    expect(output.join("")).not.toContain(PASSWORD);
  });
});
