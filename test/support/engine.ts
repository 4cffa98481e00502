/**
 * Real Pulumi stacks for tests: the engine that `npm test` set up, a file backend of the test's
 * own, and the local service's address and credentials in the stack's configuration.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand, type PulumiFn, type Stack } from "@pulumi/pulumi/automation";

const REPO_ROOT = path.resolve(__dirname, "../..");
/** Inside the repository, so programs resolve `pulumi-etl` through its node_modules. */
const WORK_ROOT = path.join(REPO_ROOT, "test", ".work");

export const TEST_PASSPHRASE = "pulumi-etl-test-passphrase";

let command: Promise<PulumiCommand> | undefined;

export function pulumiCommand(): Promise<PulumiCommand> {
  const root = process.env.PULUMI_ETL_ENGINE_ROOT;
  if (!root) throw new Error("PULUMI_ETL_ENGINE_ROOT is not set: run the tests with `npm test`, which sets up the engine");
  return (command ??= PulumiCommand.get({ root }));
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

export async function createTestStack(name: string, program: PulumiFn, service: Service): Promise<TestStack> {
  mkdirSync(WORK_ROOT, { recursive: true });
  const workDir = mkdtempSync(path.join(WORK_ROOT, `${name}-`));
  const backend = path.join(workDir, "backend");
  mkdirSync(backend);
  const stack = await LocalWorkspace.createStack(
    { stackName: "test", projectName: `etl-${name}`, program },
    {
      workDir,
      pulumiCommand: await pulumiCommand(),
      envVars: {
        PULUMI_BACKEND_URL: `file://${backend}`,
        PULUMI_CONFIG_PASSPHRASE: TEST_PASSPHRASE,
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
        // Credentials come from stack config only, so a test sees what a user's stack sees.
        ETL_API_URL: "",
        ETL_ACCOUNT_ID: "",
        ETL_API_KEY: "",
      },
    },
  );
  await stack.setAllConfig({
    "etl:apiUrl": { value: service.url },
    "etl:accountId": { value: service.accountId },
    "etl:apiKey": { value: service.apiKey, secret: true },
  });
  return { stack, workDir, dispose: () => rmSync(workDir, { recursive: true, force: true }) };
}
