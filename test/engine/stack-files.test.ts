/**
 * The tests read a stack's state, outputs and last update from its file backend rather than start
 * the CLI for each (test/support/stack-files.ts): each reading equals what the CLI prints, for a
 * stack holding secrets in a resource's inputs and outputs and in the stack's outputs (one of them
 * inside an object, which the CLI does not mark secret), after an `up` and after a `refresh`.
 */
import * as pulumi from "@pulumi/pulumi";
import { Stack } from "@pulumi/pulumi/automation";
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

  it("after refresh with secrets shown: the update, its secret settings given", async () => {
    const refresh = await test.stack.refresh({ showSecrets: true });
    expect(refresh.summary).toEqual(await fromCli.lastUpdate(true));
    expect(refresh.summary.resourceChanges).toEqual({ same: 2 });
    await test.stack.destroy();
  });
});
