#!/usr/bin/env node
/**
 * `etl-coverage --stack NAME... --state FILE...`: what in the account no stack manages, what a
 * stack holds that the service no longer does, and what two resources both write, with the
 * counts by kind and the share under code. Connects as `etl-export` does (`--api-url`,
 * `--account-id`, `ETL_*`, then the first stack's configuration); the API key never on the
 * command line. Reads only. Exit 0: nothing to act on; 1: something unmanaged, missing or
 * conflicting after the ignore rules; 2: an error, naming the setting or the file.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { getRateLimitStatus } from "../api/system";
import { createClient } from "../client";
import { parseFlags, runCommand, UsageError } from "../command-line";
import { resolveConfig, SETTINGS } from "../config";
import { UserFacingError } from "../errors";
import { htmlPage } from "./html";
import { parseIgnoreRules, type IgnoreRule } from "./ignore";
import { coverageOf, needsAction, type Claim } from "./report";
import { COVERAGE_KINDS, scanAccount } from "./scan";
import { firstStackConfig, readStates, STATE_FLAGS, withStackAccounts } from "./sources";
import { claimsOf } from "./states";
import { markdown, terminalTable } from "./text";

const USAGE = `usage: etl-coverage (--stack NAME | --state FILE)... [--ignore FILE] [--json | --markdown] [--html FILE]
                    [--api-url URL] [--account-id ID]
--stack reads a stack of the current folder's project and backend (pulumi stack export); --state a file
that command wrote. Rules of --ignore (default .etl-coverage-ignore, if there): Kind:id, Kind:*, Kind:name=<glob>.
The API key comes from ETL_API_KEY or the first stack's etl:apiKey; --api-url and --account-id fall back to
ETL_API_URL and ETL_ACCOUNT_ID, then the first stack's settings. Exit 0: nothing unmanaged, missing or
conflicting; 1: something is; 2: an error.`;

const DEFAULT_IGNORE_FILE = ".etl-coverage-ignore";
const EXIT_FINDINGS = 1;
const EXIT_ERROR = 2;

const OPTIONS = {
  ...STATE_FLAGS,
  ignore: { type: "string" },
  json: { type: "boolean", default: false },
  markdown: { type: "boolean", default: false },
  html: { type: "string" },
  "api-url": { type: "string" },
  "account-id": { type: "string" },
  help: { type: "boolean", default: false },
} as const;

function ignoreRules(given: string | undefined): IgnoreRule[] {
  const file = given ?? (existsSync(DEFAULT_IGNORE_FILE) ? DEFAULT_IGNORE_FILE : undefined);
  if (file === undefined) return [];
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UserFacingError(`--ignore ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return parseIgnoreRules(text, COVERAGE_KINDS, file);
}

/** The flags, then the environment, then the first stack's configuration. */
function settingsOf(flags: { "api-url"?: string; "account-id"?: string }, stackConfig: Record<string, string>) {
  const fromFlags: Record<string, string | undefined> = { [SETTINGS.apiUrl.key]: flags["api-url"], [SETTINGS.accountId.key]: flags["account-id"] };
  const lookup = (key: string) => fromFlags[key] ?? (process.env[envOf(key)]?.trim() ? undefined : stackConfig[key]);
  const resolved = resolveConfig(lookup);
  if (!resolved.ok)
    throw new UserFacingError(resolved.error.message.replace(/(etl:\w+) is not set \(run `pulumi config set[^`]*` or set (\w+)\)/g, whereToSet));
  return resolved.config;
}

const FLAG_OF: Record<string, string> = { [SETTINGS.apiUrl.key]: "--api-url", [SETTINGS.accountId.key]: "--account-id" };

function whereToSet(_text: string, key: string, variable: string): string {
  const flag = FLAG_OF[key] === undefined ? "" : `give ${FLAG_OF[key]}, `;
  return `${key} is not set (${flag}set ${variable}, or set ${key} in the first --stack's configuration)`;
}

function envOf(key: string): string {
  return Object.values(SETTINGS).find((setting) => setting.key === key)?.env ?? "";
}

function creditsLine(seconds: number, calls: number, remaining: { remaining: number; limit: number } | undefined): string {
  const left = remaining === undefined ? "" : `; ${remaining.remaining} of ${remaining.limit} credits left this hour`;
  return `read in ${seconds.toFixed(1)} s with ${calls} API calls (${calls} credits${left})`;
}

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, OPTIONS, "ETL_API_KEY or the stack's etl:apiKey");
  if (flags.help) return void console.log(USAGE);
  if (flags.json && flags.markdown) throw new UsageError("--json and --markdown both write to stdout: choose one");
  if ((flags.stack ?? []).length + (flags.state ?? []).length === 0)
    throw new UsageError("no states to compare the account with: give --stack NAME or --state FILE, once for each stack");
  const rules = ignoreRules(flags.ignore);
  const states = await readStates(flags.stack ?? [], flags.state ?? []);
  const config = settingsOf(flags, firstStackConfig(states));
  const client = createClient(config);
  const started = Date.now();
  const progress = (message: string) => process.stderr.write(`etl-coverage: ${message}\n`);
  const scan = await scanAccount(client.request, progress);
  const address = { accountId: config.accountId, apiUrl: config.apiUrl };
  const claims: Claim[] = [];
  for (const state of withStackAccounts(states, address)) {
    const found = claimsOf(state, address, scan.userId);
    if (found.unreadable > 0)
      progress(`${state.label}: ${found.unreadable} resources not counted: their provider's accountId or apiUrl is a secret in the state`);
    claims.push(...found.claims);
  }
  const coverage = coverageOf(config.accountId, scan.objects, claims, rules, COVERAGE_KINDS);
  const calls = client.stats.requests;
  const remaining = await getRateLimitStatus(client.request).then(
    (status) => status.limits,
    () => undefined,
  );
  if (flags.html !== undefined) writeHtml(flags.html, htmlPage(coverage, new Date()));
  if (flags.json) process.stdout.write(`${JSON.stringify(coverage, null, 2)}\n`);
  else process.stdout.write(flags.markdown ? markdown(coverage) : terminalTable(coverage));
  progress(creditsLine((Date.now() - started) / 1000, calls, remaining));
  process.exitCode = needsAction(coverage.summary) ? EXIT_FINDINGS : 0;
}

function writeHtml(file: string, page: string): void {
  try {
    writeFileSync(file, page);
  } catch (error) {
    throw new UserFacingError(`--html ${file} cannot be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

runCommand("etl-coverage", USAGE, main, EXIT_ERROR);
