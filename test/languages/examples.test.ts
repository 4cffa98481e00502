/**
 * The quickstart in Python, Go and YAML, run from their own folders (examples/quickstart-python,
 * examples/quickstart-go, examples/quickstart-yaml) through the plugin against the emulator's default account: up
 * makes the connections in their group, the key, the schedule and the hook; an unchanged preview
 * writes nothing; destroy leaves the account as it was; the passwords are never printed.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "pulumi-etl/emulator";
import { createExampleStack, type LanguageStack } from "../support/language-project";
import type { Service } from "../support/engine";
import { control } from "../support/service";

const REPO_ROOT = path.resolve(__dirname, "../..");
const WRITE_METHODS = new Set(["POST", "PUT", "DELETE"]);

describe.each(["python", "go", "yaml"] as const)("examples/quickstart-%s on the real engine", (language) => {
  const warehousePassword = `${language}-warehouse-pw-0001`;
  const bucketKey = `${language}-bucket-key-0002`;
  let emulator: RunningEmulator;
  let test: LanguageStack;
  const output: string[] = [];
  const onOutput = (text: string) => output.push(text);
  const account = async () => (await control(emulator, "state")).accounts[0];

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, speed: 20 });
    const service: Service = { url: emulator.url, accountId: emulator.accounts[0]!.uid, apiKey: emulator.accounts[0]!.apiKey };
    test = await createExampleStack(language, path.join(REPO_ROOT, "examples", `quickstart-${language}`), service, {
      [`etl-quickstart-${language}:warehousePassword`]: { value: warehousePassword, secret: true },
      [`etl-quickstart-${language}:bucketSecretKey`]: { value: bucketKey, secret: true },
    });
  }, 600_000);

  afterAll(async () => {
    test?.dispose();
    await emulator?.close();
  });

  it("up makes the story, an unchanged preview writes nothing, destroy leaves the account as it was", { timeout: 600_000 }, async () => {
    const before = await account();
    const up = await test.stack.up({ onOutput });
    expect(up.outputs.deployKeyFingerprint!.value).toBe("da:b7:da:4e:f8:9f:e5:a4:e5:50:a8:df:a1:b4:b5:93");
    const made = await account();
    expect(up.outputs.rollupPackage!.value).toBe(made.packages.find((p: { id: number }) => p.id === 101).name);
    const group = made.connectionGroups.find((g: { name: string }) => g.name === "analytics-warehouses");
    const members = made.connections.filter((c: { id: number }) => group?.connectionIds.includes(c.id)).map((c: { name: string }) => c.name);
    expect(members.sort()).toEqual(["landing-bucket", "warehouse"]);
    expect(made.schedules.find((s: { id: number }) => s.id === Number(up.outputs.scheduleId!.value))).toMatchObject({ name: "nightly orders rollup" });
    expect(made.hooks.find((h: { id: number }) => h.id === Number(up.outputs.hookId!.value))).toMatchObject({ type: "web", name: "failed jobs" });

    await control(emulator, "requests", "DELETE");
    await test.stack.preview({ expectNoChanges: true, onOutput });
    expect((await control(emulator, "requests")).filter((r: { method: string }) => WRITE_METHODS.has(r.method))).toEqual([]);

    await test.stack.destroy({ onOutput });
    const after = await account();
    for (const area of ["publicKeys", "connectionGroups", "connections", "schedules", "hooks"]) {
      expect(
        after[area].map((o: { id: number }) => o.id),
        area,
      ).toEqual(before[area].map((o: { id: number }) => o.id));
    }
    for (const secret of [warehousePassword, bucketKey]) expect(output.join("")).not.toContain(secret);
  });
});
