/**
 * Real Pulumi stacks for tests: the engine that `npm test` set up, a file backend of the test's
 * own, and the emulator's address and credentials in the stack's configuration.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand, type ConfigMap, type PulumiFn, type Stack } from "@pulumi/pulumi/automation";
import { expect } from "vitest";
import { deferOperationResults } from "./deferred-results";
import { routeErrorsToTheirRuns, separateRunConnections } from "./inline-runs";
import { writeConfigInFile } from "./stack-config";
import { TEST_SECRETS_PROVIDER, transitEnv } from "./secrets-transit";

const REPO_ROOT = path.resolve(__dirname, "../..");
/** Inside the repository, so programs resolve `pulumi-etl` through its node_modules. */
const WORK_ROOT = path.join(REPO_ROOT, "test", ".work");

routeErrorsToTheirRuns();
separateRunConnections();

export const TEST_PASSPHRASE = "pulumi-etl-test-passphrase";

let command: Promise<PulumiCommand> | undefined;

export function pulumiCommand(): Promise<PulumiCommand> {
  const root = process.env.PULUMI_ETL_ENGINE_ROOT;
  if (!root) throw new Error("PULUMI_ETL_ENGINE_ROOT is not set: run the tests with `npm test`, which sets up the engine");
  // The version is the one scripts/engine.sh installed into root; checking it again costs a CLI start per test file.
  return (command ??= PulumiCommand.get({ root, skipVersionCheck: true }));
}

export interface Service {
  url: string;
  accountId: string;
  apiKey: string;
}

export interface TestStack {
  stack: Stack;
  workDir: string;
  /** Removes the stack's files; call after `destroy`. */
  dispose(): void;
}

export function testEnv(backend: string): Record<string, string> {
  return {
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: TEST_PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // Credentials come from stack config only, so a test sees what a user's stack sees.
    ETL_API_URL: "",
    ETL_ACCOUNT_ID: "",
    ETL_API_KEY: "",
    ...transitEnv(),
  };
}

/**
 * A workspace's options for a stack of the tests: this engine, the test's backend and `env`, and
 * the run's transit key for its secrets (secrets-transit.ts), set as `pulumi stack init` makes it.
 */
export async function testWorkspace(backend: string, env: Record<string, string> = {}) {
  return { pulumiCommand: await pulumiCommand(), envVars: { ...testEnv(backend), ...env }, secretsProvider: TEST_SECRETS_PROVIDER };
}

async function configure(stack: Stack, service: Service): Promise<void> {
  await stack.setAllConfig({
    "etl:apiUrl": { value: service.url },
    "etl:accountId": { value: service.accountId },
    "etl:apiKey": { value: service.apiKey, secret: true },
  });
}

export function newWorkDir(name: string): { workDir: string; backend: string } {
  mkdirSync(WORK_ROOT, { recursive: true });
  const workDir = mkdtempSync(path.join(WORK_ROOT, `${name}-`));
  const backend = path.join(workDir, "backend");
  mkdirSync(backend);
  return { workDir, backend };
}

/** The folder of `pulumi-resource-etl`, for a project's `plugins: providers:`. */
export const PLUGIN_DIR = path.join(REPO_ROOT, "bin");

export interface StackOptions {
  /** Finds the plugin in this repository, as a project's `plugins:` entry would. */
  plugin?: boolean;
  /** Leaves the stack's `etl:*` configuration unset (explicit providers bring their own). */
  unconfigured?: boolean;
}

/** A stack of an inline program, in a work folder and file backend of its own. */
export async function createTestStack(
  name: string,
  program: PulumiFn,
  service: Service,
  env: Record<string, string> = {},
  options: StackOptions = {},
): Promise<TestStack> {
  const { workDir, backend } = newWorkDir(name);
  const projectName = `etl-${name}`;
  const plugins = options.plugin ? { plugins: { providers: [{ name: "etl", path: PLUGIN_DIR }] } } : {};
  const stack = await LocalWorkspace.createStack(
    { stackName: "test", projectName, program },
    { ...(await testWorkspace(backend, env)), workDir, projectSettings: { name: projectName, runtime: "nodejs", ...plugins } },
  );
  deferOperationResults(stack, backend);
  writeConfigInFile(stack, new Map());
  if (!options.unconfigured) await configure(stack, service);
  return { stack, workDir, dispose: () => rmSync(workDir, { recursive: true, force: true }) };
}

/**
 * A stack of a project folder with its own Pulumi.yaml (an example), run by the Node.js
 * language host as `pulumi up` in that folder would; state goes to a backend of the test's own.
 * The language host runs the program without type-checking it: `npm run typecheck`
 * (tsconfig.check.json) type-checks every example, once, where each run would again.
 */
export async function createProjectStack(name: string, projectDir: string, service: Service, config: ConfigMap = {}): Promise<TestStack> {
  const { workDir, backend } = newWorkDir(name);
  const workspace = await testWorkspace(backend, { PULUMI_NODEJS_TRANSPILE_ONLY: "true" });
  const stack = await LocalWorkspace.createStack({ stackName: `test-${path.basename(workDir)}`, workDir: projectDir }, workspace);
  deferOperationResults(stack, backend);
  writeConfigInFile(stack, new Map());
  await configure(stack, service);
  if (Object.keys(config).length > 0) await stack.setAllConfig(config);
  const dispose = () => {
    rmSync(path.join(projectDir, `Pulumi.${stack.name}.yaml`), { force: true });
    rmSync(workDir, { recursive: true, force: true });
  };
  return { stack, workDir, dispose };
}

/** The text of an operation's failure (the engine's output is in the error); fails if it succeeded. */
export async function failureOf(operation: Promise<unknown>): Promise<string> {
  const error = await operation.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "the operation should have failed").toBeInstanceOf(Error);
  return String((error as Error).message);
}

/**
 * `failureOf` for an operation of an inline program that must fail before the provider changes
 * anything (bad input, bad settings), run once: the text of its failure, or, if it passed, a
 * text saying so, which fails the caller's expectation on the text and names what passed.
 */
export async function failureOfInline(run: () => Promise<unknown>): Promise<string> {
  return run().then(
    (result) => `the operation should have failed, and passed counting ${resourcesCounted(result)} resources (the stack included)`,
    (error: unknown) => String((error as Error).message),
  );
}

/** The resources a passed operation's result counts, the stack's own included. */
function resourcesCounted(result: unknown): number {
  const { changeSummary, summary } = (result ?? {}) as { changeSummary?: Record<string, number>; summary?: { resourceChanges?: Record<string, number> } };
  return Object.values(changeSummary ?? summary?.resourceChanges ?? {}).reduce((sum, count) => sum + count, 0);
}
