/**
 * The plugin's own settings: two accounts managed from one program through explicit providers,
 * each on an emulator of its own; a change of settings that replaces nothing; settings that
 * are wrong, and a plugin that cannot be found, each failing with what to do.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageVersion } from "pulumi-etl/plugin";
import { createCliProject, runPulumi, type CliProject } from "../support/cli";
import { createTestStack, failureOf, PLUGIN_DIR, type TestStack } from "../support/engine";
import { ed25519PublicKeyLine } from "../support/keys";
import { pluginProvider, pluginResource } from "../support/plugin";
import { startTestEmulator, type Emulator } from "../support/service";

describe("two accounts in one program through explicit providers", { timeout: 240_000 }, () => {
  let development: Emulator;
  let production: Emulator;
  let test: TestStack;
  let productionTimeout = "30";
  const keys = { development: ed25519PublicKeyLine("dev@example.com"), production: ed25519PublicKeyLine("prod@example.com") };
  const cliOutput: string[] = [];
  const onOutput = (text: string) => cliOutput.push(text);

  beforeAll(async () => {
    [development, production] = await Promise.all([startTestEmulator(), startTestEmulator()]);
    test = await createTestStack(
      "plugin-providers",
      async () => {
        const settings = (service: Emulator) => ({ apiUrl: service.url, accountId: service.accountId, apiKey: service.apiKey });
        const dev = pluginProvider("development", settings(development));
        const prod = pluginProvider("production", { ...settings(production), requestTimeoutSeconds: productionTimeout } as any);
        const devKey = pluginResource("PublicKey", "deploy-dev", { publicKey: keys.development.line, name: "deploy" }, { provider: dev });
        const prodKey = pluginResource("PublicKey", "deploy-prod", { publicKey: keys.production.line, name: "deploy" }, { provider: prod });
        return { dev: devKey.fingerprint, prod: prodKey.fingerprint };
      },
      development,
      {},
      { plugin: true, unconfigured: true },
    );
  });

  afterAll(async () => {
    test?.dispose();
    await Promise.all([development?.emulator.close(), production?.emulator.close()]);
  });

  const keysOf = async (service: Emulator) => ((await service.state()).accounts[0].publicKeys as Array<{ fingerprint: string }>).map((key) => key.fingerprint);

  it("each key is made in its own account", async () => {
    const { outputs } = await test.stack.up({ onOutput });
    expect(outputs.dev!.value).toBe(keys.development.fingerprint);
    expect(await keysOf(development)).toEqual([keys.development.fingerprint]);
    expect(await keysOf(production)).toEqual([keys.production.fingerprint]);
  });

  it("a change of a provider's settings updates the provider and replaces nothing", async () => {
    productionTimeout = "45";
    await production.resetRequests();
    const { summary } = await test.stack.up({ onOutput });
    expect(summary.resourceChanges).toEqual({ same: 4, update: 1 });
    expect(await production.writeRequests()).toEqual([]);
  });

  it("destroy empties both accounts; neither key is in any output", async () => {
    await test.stack.destroy({ onOutput });
    expect([await keysOf(development), await keysOf(production)]).toEqual([[], []]);
    for (const service of [development, production]) expect(cliOutput.join("")).not.toContain(service.apiKey);
  });
});

describe("the plugin installed with `pulumi plugin install --file`", { timeout: 120_000 }, () => {
  let service: Emulator;
  let project: CliProject;
  const home = mkdtempSync(path.join(tmpdir(), "pulumi-home-"));

  beforeAll(async () => {
    service = await startTestEmulator();
    project = await createCliProject(
      "plugin-installed",
      service,
      {},
      { surface: "plugin", pluginFrom: "installed", env: { PULUMI_HOME: home, PULUMI_IGNORE_AMBIENT_PLUGINS: "true" } },
    );
  });

  afterAll(async () => {
    project?.dispose();
    rmSync(home, { recursive: true, force: true });
    await service?.emulator.close();
  });

  it("a project with no plugins entry finds it, and it serves with the project's installed package", async () => {
    const install = await runPulumi(["plugin", "install", "resource", "etl", packageVersion(), "--file", path.join(PLUGIN_DIR, "pulumi-resource-etl")], {
      ...project.env,
      PULUMI_HOME: home,
    });
    expect(install.code, install.output).toBe(0);
    await project.declare([{ kind: "PublicKey", name: "key", args: { publicKey: ed25519PublicKeyLine("installed@example.com").line, name: "installed" } }]);
    const up = await project.runToEnd(["up", "--yes", "--skip-preview"]);
    expect(up.code, up.output).toBe(0);
    const types = ((await project.stack.exportStack()).deployment.resources ?? []).map((r: { type: string }) => r.type);
    expect(types).toContain("etl:index:PublicKey");
    expect((await service.state()).accounts[0].publicKeys).toHaveLength(1);
    expect((await project.runToEnd(["destroy", "--yes", "--skip-preview"])).code).toBe(0);
  });
});

describe("the plugin misconfigured or missing", { timeout: 120_000 }, () => {
  let service: Emulator;
  const stacks: TestStack[] = [];
  const key = ed25519PublicKeyLine("setup@example.com");
  const program = async () => {
    pluginResource("PublicKey", "deploy", { publicKey: key.line, name: "deploy" });
    return {};
  };

  beforeAll(async () => {
    service = await startTestEmulator();
  });

  afterAll(async () => {
    for (const stack of stacks) stack.dispose();
    await service?.emulator.close();
  });

  it("settings that are missing or wrong fail the preview, naming each setting and how to set it, before any call", async () => {
    const test = await createTestStack("plugin-unconfigured", program, service, {}, { plugin: true, unconfigured: true });
    stacks.push(test);
    await test.stack.setConfig("etl:apiUrl", { value: "ftp://example.com" });
    await service.resetRequests();
    const message = await failureOf(test.stack.preview());
    expect(message).toContain('etl:apiUrl must use http or https, got "ftp"');
    expect(message).toContain("etl:accountId is not set (run `pulumi config set etl:accountId <value>` or set ETL_ACCOUNT_ID)");
    expect(message).toContain("etl:apiKey is not set (run `pulumi config set --secret etl:apiKey <value>` or set ETL_API_KEY)");
    expect(message).not.toMatch(/\n\s+at /);
    expect(await service.calls()).toEqual([]);
  });

  it("settings from the environment alone work, and the key is then nowhere in state", async () => {
    const env = { ETL_API_URL: service.url, ETL_ACCOUNT_ID: service.accountId, ETL_API_KEY: service.apiKey };
    const test = await createTestStack("plugin-environment", program, service, env, { plugin: true, unconfigured: true });
    stacks.push(test);
    await test.stack.up();
    expect((await service.state()).accounts[0].publicKeys).toHaveLength(1);
    const state = JSON.stringify(await test.stack.exportStack());
    expect(state).not.toContain(service.apiKey);
    expect(state).not.toContain("ciphertext");
    await test.stack.destroy();
  });

  it("a plugin that cannot be found fails at once, naming it, with no download attempted", async () => {
    const test = await createTestStack("plugin-missing", program, service, { PULUMI_IGNORE_AMBIENT_PLUGINS: "true" });
    stacks.push(test);
    const message = await failureOf(test.stack.preview());
    expect(message).toContain("no resource plugin 'pulumi-resource-etl' found");
    expect(message).not.toMatch(/download/i);
  });

  it("a plugin that finds only an old Node.js says which one it found and what it needs", async () => {
    const fakeBin = mkdtempSync(path.join(tmpdir(), "old-node-"));
    writeFileSync(path.join(fakeBin, "node"), "#!/bin/sh\necho v20.11.1\n", { mode: 0o755 });
    const test = await createTestStack("plugin-old-node", program, service, { PATH: `${fakeBin}:${process.env.PATH}` }, { plugin: true });
    stacks.push(test);
    const message = await failureOf(test.stack.preview());
    expect(message).toContain("Node.js 22 or newer is needed on PATH to run the etl provider plugin");
    expect(message).toContain("v20.11.1");
    rmSync(fakeBin, { recursive: true, force: true });
  });
});
