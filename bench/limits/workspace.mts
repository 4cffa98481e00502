/**
 * Where the benchmark's stacks live: a copy of the benchmark program next to `pulumi-etl` as an
 * installed package (`node_modules/pulumi-etl` holding package.json and dist), so the state it
 * writes is the state a user's project gets, and a file backend of its own.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as automation from "@pulumi/pulumi/automation/index.js";
import { writeProjectWithInstalledPackage } from "../../test/support/installed-package.mts";
import type { PulumiCommand, Stack } from "@pulumi/pulumi/automation/index.js";
import type { Kind } from "./kinds.mts";

const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
const PROGRAM_SOURCE = path.join(REPO_ROOT, "bench", "program");
const PASSPHRASE = "pulumi-etl-bench";

export interface BenchWorkspace {
  programDir: string;
  backendDir: string;
  command: PulumiCommand;
}

export async function prepareWorkspace(root: string): Promise<BenchWorkspace> {
  fs.rmSync(root, { recursive: true, force: true });
  const programDir = path.join(root, "program");
  const backendDir = path.join(root, "backend");
  fs.mkdirSync(backendDir, { recursive: true });
  const program = Object.fromEntries(fs.readdirSync(PROGRAM_SOURCE).map((name) => [name, fs.readFileSync(path.join(PROGRAM_SOURCE, name), "utf8")]));
  writeProjectWithInstalledPackage(programDir, program);
  // The plugin floor's provider is run by the engine, as a plugin's executable is.
  for (const name of Object.keys(program).filter((file) => file.startsWith("pulumi-resource-"))) fs.chmodSync(path.join(programDir, name), 0o755);
  const engineRoot = process.env.PULUMI_ETL_ENGINE_ROOT;
  if (!engineRoot) throw new Error("PULUMI_ETL_ENGINE_ROOT is not set: run the benchmark with `npm run bench`, which sets up the engine");
  const command = await automation.PulumiCommand.get({ root: engineRoot });
  return { programDir, backendDir, command };
}

export async function createBenchStack(
  workspace: BenchWorkspace,
  name: string,
  config: Record<string, { value: string; secret?: boolean }>,
  envVars: Record<string, string> = {},
): Promise<Stack> {
  const stack = await automation.LocalWorkspace.createStack(
    { stackName: name, workDir: workspace.programDir },
    {
      pulumiCommand: workspace.command,
      envVars: {
        PULUMI_BACKEND_URL: `file://${workspace.backendDir}`,
        PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
        ETL_API_URL: "",
        ETL_ACCOUNT_ID: "",
        ETL_API_KEY: "",
        ...envVars,
      },
    },
  );
  await stack.setAllConfig(config);
  return stack;
}

/** What a kind's own floor (`Floor.<Kind>`, `Floor.<Kind>@plugin`) returns beyond its inputs: what the kind returned, which measure.mts writes as the kind runs. */
export function floorOutputsFile(workspace: BenchWorkspace, floor: Kind): string {
  const folder = path.join(path.dirname(workspace.programDir), "floor-outputs");
  fs.mkdirSync(folder, { recursive: true });
  return path.join(folder, `${floor}.json`);
}

/** The checkpoint as the backend stores it. */
export function stateFileOf(workspace: BenchWorkspace, stackName: string): string {
  return path.join(workspace.backendDir, ".pulumi", "stacks", "etl-bench", `${stackName}.json`);
}

export async function removeBenchStack(workspace: BenchWorkspace, stack: Stack): Promise<void> {
  await stack.workspace.removeStack(stack.name);
  fs.rmSync(path.join(workspace.programDir, `Pulumi.${stack.name}.yaml`), { force: true });
}
