/**
 * Where the command finds the stacks' states: `--stack NAME`, through the Pulumi CLI of the
 * current folder and backend (`pulumi stack export`, and the stack's configuration, which also
 * gives the command its settings when the flags and environment do not), and `--state FILE`, a
 * `pulumi stack export` file a CI job collected. Each failure names the stack or the file.
 */
import { readFileSync } from "node:fs";
import { UserFacingError } from "../errors";
import { pulumiCli } from "../recover/pulumi";
import type { Deployment } from "../recover/state";
import { stackLabel, type AccountAddress, type StackState } from "./states";

/** The flags naming the states, shared by `etl coverage` and `etl export --unmanaged`. */
export const STATE_FLAGS = {
  stack: { type: "string", multiple: true },
  state: { type: "string", multiple: true },
} as const;

export interface ReadState {
  label: string;
  deployment: Deployment;
  /** The stack's configuration (secrets shown), for a stack read through the CLI. */
  config?: Record<string, string>;
}

function asDeployment(value: unknown, where: string): Deployment {
  const deployment = (value as Deployment | null)?.deployment;
  if (deployment === undefined || deployment === null || typeof deployment !== "object" || !Array.isArray(deployment.resources ?? [])) {
    throw new UserFacingError(`${where} is not a state as \`pulumi stack export\` writes it: it has no "deployment" with its "resources"`);
  }
  return value as Deployment;
}

function readStateFile(file: string): ReadState {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UserFacingError(`--state ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UserFacingError(`--state ${file} is not JSON: ${(error as Error).message}`);
  }
  const deployment = asDeployment(parsed, `--state ${file}`);
  return { label: stackLabel(deployment, file), deployment };
}

async function readStack(name: string): Promise<ReadState> {
  const pulumi = pulumiCli(name);
  try {
    const deployment = asDeployment(await pulumi.exportState(false), `--stack ${name}'s state`);
    return { label: stackLabel(deployment, name), deployment, config: await pulumi.config() };
  } catch (error) {
    if (error instanceof UserFacingError) throw new UserFacingError(`--stack ${name}: ${error.message}`);
    throw error;
  }
}

/** Every state named, stacks first, in the order given. */
export async function readStates(stacks: readonly string[], files: readonly string[]): Promise<ReadState[]> {
  const fromFiles = files.map(readStateFile);
  const fromStacks: ReadState[] = [];
  for (const name of stacks) fromStacks.push(await readStack(name));
  return [...fromStacks, ...fromFiles];
}

/** The settings the first stack read through the CLI gives: what the command falls back to after its flags. */
export function firstStackConfig(states: readonly ReadState[]): Record<string, string> {
  return states.find((state) => state.config !== undefined)?.config ?? {};
}

/**
 * Each state with its stack's own account: the configuration's, else the environment's; a file
 * says neither, so its dynamic resources and unset default providers are taken as `scanned`'s.
 */
export function withStackAccounts(states: readonly ReadState[], scanned: AccountAddress): StackState[] {
  const fromEnv = { accountId: process.env.ETL_ACCOUNT_ID || undefined, apiUrl: process.env.ETL_API_URL || undefined };
  return states.map((state) => {
    const accountId = state.config?.["etl:accountId"] ?? fromEnv.accountId ?? scanned.accountId;
    const apiUrl = state.config?.["etl:apiUrl"] ?? fromEnv.apiUrl ?? scanned.apiUrl;
    return { label: state.label, deployment: state.deployment, account: { accountId, apiUrl } };
  });
}
