/**
 * Previews with the project's policy pack (policy/): stacks of a chosen name (the production
 * rule reads it), the pack's config file, and the pack as the engine here runs it.
 */
import { rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, type PreviewResult, type PulumiFn, type Stack } from "@pulumi/pulumi/automation";
import { newWorkDir, PLUGIN_DIR, testWorkspace, type Service, type TestStack } from "./engine";

/** The pack's launcher: this engine's Node.js host cannot run a pack's folder (docs/policy.md). */
export const POLICY_PACK = path.resolve(__dirname, "../../policy/analyzer");

/** A stack named `stackName` of an inline program, on the plugin surface when `plugin` is set. */
export async function createNamedStack(stackName: string, program: PulumiFn, service: Service, plugin = false): Promise<TestStack> {
  const { workDir, backend } = newWorkDir(`policy-${stackName}`);
  const projectName = "etl-policy";
  const plugins = plugin ? { plugins: { providers: [{ name: "etl", path: PLUGIN_DIR }] } } : {};
  const stack = await LocalWorkspace.createStack(
    { stackName, projectName, program },
    { ...(await testWorkspace(backend)), workDir, projectSettings: { name: projectName, runtime: "nodejs", ...plugins } },
  );
  await stack.setAllConfig({
    "etl:apiUrl": { value: service.url },
    "etl:accountId": { value: service.accountId },
    "etl:apiKey": { value: service.apiKey, secret: true },
  });
  return { stack, workDir, dispose: () => rmSync(workDir, { recursive: true, force: true }) };
}

/** A policy config file (`--policy-pack-config`) in the stack's work folder. */
export function policyConfigFile(test: TestStack, config: Record<string, unknown>): string {
  const file = path.join(test.workDir, "policy-config.json");
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

/** `pulumi preview --policy-pack policy [--policy-pack-config file]`. */
export function previewWithPack(stack: Stack, configFile?: string): Promise<PreviewResult> {
  return stack.preview({ policyPacks: [POLICY_PACK], ...(configFile ? { policyPackConfigs: [configFile] } : {}) });
}
