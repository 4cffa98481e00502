#!/usr/bin/env node
/**
 * `etl-export --language typescript|python|go|yaml --out DIR`: an account's set-up as a Pulumi
 * program and an import file. Connects as the provider does (`--api-url`, `--account-id`, or
 * `ETL_*`); the API key only from `ETL_API_KEY`. Progress goes to stderr, the report to stdout.
 */
import { existsSync } from "node:fs";
import * as path from "node:path";
import { createClient } from "../client";
import { getRateLimitStatus } from "../api/system";
import { DEFAULT_VENDOR, resolveConfig, SETTINGS, type ProviderConfig } from "../config";
import { COMMON_FLAGS, parseFlags, runCommand, UsageError } from "../command-line";
import { RESOURCE_KINDS, type ResourceKind } from "../resources/registry";
import { exportFiles, LANGUAGES, writeFiles, type Language } from "./files";
import { kindOptionName, slugOf } from "./names";
import { exportableKinds, readAccount, type AccountExport } from "./read";
import { UNMANAGED_FLAGS, unmanagedFilter } from "../coverage/unmanaged";
import { DEFAULT_STACK, nextSteps, PULUMI_NAME, stackSettingsFile, stackSettingsFileName, variableLines } from "./steps";

const USAGE = `usage: etl-export --language typescript|python|go|yaml --out DIR [--surface plugin|dynamic] [--only KINDS] [--name-prefix TEXT]
                  [--project NAME] [--new-stack NAME] [--dry-run] [--api-url URL] [--account-id ID]
                  [--unmanaged (--stack NAME | --state FILE)...]
The API key is read from ETL_API_KEY; --api-url and --account-id fall back to ETL_API_URL and ETL_ACCOUNT_ID.
The project is named after the output folder unless --project names it; the stack the steps make is "${DEFAULT_STACK}" unless --new-stack names it.
--unmanaged leaves out every object the stacks --stack and --state name hold.`;

const OPTIONS = {
  language: { type: "string" },
  out: { type: "string" },
  surface: { type: "string", default: "plugin" },
  only: { type: "string" },
  "name-prefix": { type: "string" },
  project: { type: "string" },
  ...UNMANAGED_FLAGS,
  "new-stack": { type: "string", default: DEFAULT_STACK },
  ...COMMON_FLAGS,
} as const;

function parse(argv: string[]) {
  return parseFlags(argv, OPTIONS, "ETL_API_KEY");
}

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T {
  if (value === undefined) throw new UsageError(`--${flag} is required: one of ${allowed.join(", ")}`);
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${flag} must be one of ${allowed.join(", ")}, got "${value}"`);
  return value as T;
}

/** `schedules`, `connection-groups`, `ConnectionGroup` → the kind. */
function kindsOf(only: string | undefined): ResourceKind[] {
  const { kinds } = exportableKinds();
  if (only === undefined) return kinds;
  const simple = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z]/g, "")
      .replace(/ies$/, "y")
      .replace(/s$/, "");
  return only.split(",").map((given) => {
    const kind = kinds.find((candidate) => simple(candidate) === simple(given));
    if (kind !== undefined) return kind;
    const runtime = RESOURCE_KINDS.find((candidate) => simple(candidate) === simple(given));
    const why = runtime === undefined ? "" : ` (${runtime} objects are runtime objects, not set-up)`;
    throw new UsageError(`--only: "${given.trim()}" is not a kind that can be exported${why}; the kinds are ${kinds.map(kindOptionName).join(", ")}`);
  });
}

function report(account: AccountExport, seconds: number, calls: number, remaining: { remaining: number; limit: number } | undefined): string[] {
  const counts = new Map<string, number>();
  for (const object of account.objects) counts.set(object.kind, (counts.get(object.kind) ?? 0) + 1);
  const lines = [`exported ${account.objects.length} objects: ${[...counts].map(([kind, count]) => `${count} ${kind}`).join(", ") || "none"}`];
  for (const left of exportableKinds().runtime) lines.push(`left out: every ${left.kind}, ${left.reason}`);
  lines.push(...leftOutLines(account.leftOut));
  const credits = remaining === undefined ? "" : `; ${remaining.remaining} of ${remaining.limit} credits left this hour`;
  lines.push(`read in ${seconds.toFixed(1)} s with ${calls} API calls (${calls} credits${credits})`);
  if (account.settings.length > 0) lines.push("", ...variableLines(account.settings));
  return lines;
}

const NAMED_AT_MOST = 5;

/** Objects left out, by kind and reason: each named, up to a few of each. */
function leftOutLines(leftOut: AccountExport["leftOut"]): string[] {
  const groups = new Map<string, AccountExport["leftOut"]>();
  for (const left of leftOut) groups.set(`${left.kind}: ${left.reason}`, [...(groups.get(`${left.kind}: ${left.reason}`) ?? []), left]);
  return [...groups].map(([reason, objects]) => {
    const named = objects.slice(0, NAMED_AT_MOST).map((left) => `${left.id} (${left.name})`);
    const more = objects.length > NAMED_AT_MOST ? ` and ${objects.length - NAMED_AT_MOST} more` : "";
    return `left out: ${objects.length} ${reason}: ${named.join(", ")}${more}`;
  });
}

/** The project named after the output folder, so two exports of one account share no stack; or as given. */
function namesOf(flags: { project?: string; "new-stack": string; out?: string }, accountId: string): { project: string; stack: string } {
  const fromFolder = flags.out === undefined ? "" : slugOf(path.basename(path.resolve(flags.out)));
  const project = flags.project ?? (fromFolder || `etl-${slugOf(accountId)}`);
  if (!PULUMI_NAME.test(project)) throw new UsageError(`--project must be letters, digits, "_", "." or "-" (a Pulumi project name), got "${project}"`);
  const stack = flags["new-stack"];
  if (!PULUMI_NAME.test(stack)) throw new UsageError(`--new-stack must be letters, digits, "_", "." or "-" (a Pulumi stack name), got "${stack}"`);
  return { project, stack };
}

/** The settings the export connected with, as the stack's; the API key is set as a secret by the steps. */
function settingsGiven(config: ProviderConfig): Record<string, string> {
  return {
    [SETTINGS.apiUrl.key]: config.apiUrl,
    [SETTINGS.accountId.key]: config.accountId,
    ...(config.vendor === DEFAULT_VENDOR ? {} : { [SETTINGS.vendor.key]: config.vendor }),
    ...(config.allowInsecureHttp ? { [SETTINGS.allowInsecureHttp.key]: "true" } : {}),
  };
}

async function main(argv: string[]): Promise<void> {
  const flags = parse(argv);
  if (flags.help) return void console.log(USAGE);
  const language = oneOf<Language>("language", flags.language, LANGUAGES);
  const surface = oneOf("surface", flags.surface, ["plugin", "dynamic"] as const);
  if (surface === "dynamic" && language !== "typescript")
    throw new UsageError("--surface dynamic is for TypeScript programs only: the dynamic resources live in the pulumi-etl npm package");
  if (flags.out === undefined && !flags["dry-run"]) throw new UsageError("--out is required: the folder the program is written to");
  const kinds = kindsOf(flags.only);
  const fromFlags: Record<string, string | undefined> = { [SETTINGS.apiUrl.key]: flags["api-url"], [SETTINGS.accountId.key]: flags["account-id"] };
  const resolved = resolveConfig((key) => fromFlags[key]);
  if (!resolved.ok) throw new UsageError(resolved.error.message.replace(/run `pulumi config set[^`]*` or set (\w+)/g, "set $1"));
  const { project, stack } = namesOf(flags, resolved.config.accountId);
  const client = createClient(resolved.config);
  const started = Date.now();
  const progress = (message: string) => process.stderr.write(`etl-export: ${message}\n`);
  const keep = await unmanagedFilter(flags, { accountId: resolved.config.accountId, apiUrl: resolved.config.apiUrl }, progress);
  const account = await readAccount(client.request, { kinds, namePrefix: flags["name-prefix"], progress, keep });
  const calls = client.stats.requests;
  const remaining = await getRateLimitStatus(client.request)
    .then((status) => status.limits)
    .catch(() => undefined);
  const files = exportFiles(account, { language, surface, project, accountId: resolved.config.accountId });
  const stackFile = stackSettingsFileName(stack);
  // A stack file already there holds the stack's secrets and their encryption salt: it is the user's now.
  const keptStackFile = flags.out !== undefined && existsSync(path.join(flags.out, stackFile));
  const given = settingsGiven(resolved.config);
  if (!keptStackFile) files[stackFile] = stackSettingsFile(given);
  const lines = report(account, (Date.now() - started) / 1000, calls, remaining);
  if (flags["dry-run"]) {
    lines.unshift("dry run: nothing written; the files would be:", ...Object.keys(files).map((name) => `  ${name}`), "");
  } else {
    const { written, unchanged } = writeFiles(flags.out!, files);
    const settingsFile = keptStackFile ? `${stackFile} kept as it was` : `${stackFile} holds ${Object.keys(given).join(", ")}`;
    lines.push("", `wrote ${written} files to ${flags.out} (${unchanged} unchanged); project ${project}, stack ${stack}: ${settingsFile}`);
    lines.push("", "next, with ETL_API_KEY set to the account's API key, paste these lines into a shell:");
    lines.push(...nextSteps(account.settings, { out: flags.out!, stack, language, surface }).map((step) => `  ${step}`));
  }
  console.log(lines.join("\n"));
}

runCommand("etl-export", USAGE, main);
