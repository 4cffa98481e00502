/**
 * The tests read a stack's state, outputs and last update from its file backend, and write its
 * settings into its file, rather than start the CLI for each (test/support/stack-files.ts,
 * stack-config.ts): each reading equals what the CLI prints, and the CLI reads back what was written, for a
 * stack holding secrets in a resource's inputs and outputs and in the stack's outputs (one of them
 * inside an object, which the CLI does not mark secret), after an `up` and after a `refresh`.
 */
import * as pulumi from "@pulumi/pulumi";
import { Stack } from "@pulumi/pulumi/automation";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestStack, type TestStack } from "../support/engine";
import { readStackFiles } from "../support/stack-files";
import { startTestEmulator, type Emulator } from "../support/service";
import { declare } from "../support/surfaces";

describe("a test stack's files read as the CLI prints them", { timeout: 120_000 }, () => {
  let service: Emulator;
  let test: TestStack;

  beforeAll(async () => {
    service = await startTestEmulator();
    test = await createTestStack(
      "stack-files",
      async () => {
        const password = pulumi.secret("files-SECRET-password");
        const connection = declare("plugin", "Connection", "warehouse", {
          type: "postgres",
          name: "warehouse",
          host: "db.example.com",
          database: "d",
          username: "u",
          password,
        });
        return { id: connection.id, token: pulumi.secret("files-SECRET-token"), nested: { plain: "x", hidden: pulumi.secret(42) }, list: [1, "two"] };
      },
      service,
      {},
      { plugin: true },
    );
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  /** What the CLI prints, asked the way the Automation API asks it. */
  const fromCli = {
    exported: () => Stack.prototype.exportStack.call(test.stack),
    outputs: () => test.stack.workspace.stackOutputs(test.stack.name),
    lastUpdate: async (showSecrets: boolean) => (await test.stack.history(1, 1, showSecrets))[0],
  };

  it("after up: the state with its secrets shown, the outputs each marked secret or not, and the update", async () => {
    const up = await test.stack.up();
    // Read from the files, not from the CLI where they could not say.
    const files = await readStackFiles(path.join(test.workDir, "backend"), test.stack.name, new Map());
    expect(files?.outputs()).toBeDefined();
    expect(files?.lastUpdate(false)).toBeDefined();
    expect(up.outputs).toEqual(await fromCli.outputs());
    expect(up.outputs.nested).toEqual({ value: { plain: "x", hidden: 42 }, secret: false });
    expect(up.outputs.token).toEqual({ value: "files-SECRET-token", secret: true });
    expect(up.summary).toEqual(await fromCli.lastUpdate(false));
    const exported = await test.stack.exportStack();
    expect(exported).toEqual(await fromCli.exported());
    expect(JSON.stringify(exported)).toContain("files-SECRET-password");
  });

  it("settings written into the stack's file read back through the CLI as set, secrets sealed; once the CLI wrote the file, it writes", async () => {
    const file = path.join(test.workDir, "Pulumi.test.yaml");
    // Written by the stack's own setters (stack-config.ts): etl:* at creation, these now.
    await test.stack.setAllConfig({ "test:plain": { value: "true" }, "test:hidden": { value: "files-SECRET-setting", secret: true } });
    await test.stack.removeConfig("test:plain");
    await test.stack.setConfig("test:plain", { value: "a: b # c" });
    expect(readFileSync(file, "utf8")).not.toContain("files-SECRET-setting");
    expect(readFileSync(file, "utf8")).toContain('"test:plain": "a: b # c"');
    const read = await test.stack.workspace.getAllConfig(test.stack.name);
    expect(read).toMatchObject({
      "etl:apiKey": { value: service.apiKey, secret: true },
      "etl:apiUrl": { value: service.url, secret: false },
      "test:plain": { value: "a: b # c", secret: false },
      "test:hidden": { value: "files-SECRET-setting", secret: true },
    });
    // The CLI writes the file its way; the setters then leave it to the CLI.
    await test.stack.workspace.setConfig(test.stack.name, "test:byCli", { value: "cli" });
    const byCli = readFileSync(file, "utf8");
    await test.stack.setConfig("test:after", { value: "after" });
    expect(readFileSync(file, "utf8")).not.toBe(byCli);
    expect(await test.stack.workspace.getAllConfig(test.stack.name)).toMatchObject({ "test:byCli": { value: "cli" }, "test:after": { value: "after" } });
  });

  it("after refresh with secrets shown: the update, its secret settings given", async () => {
    const refresh = await test.stack.refresh({ showSecrets: true });
    expect(refresh.summary).toEqual(await fromCli.lastUpdate(true));
    expect(refresh.summary.resourceChanges).toEqual({ same: 2 });
    await test.stack.destroy();
  });
});
