/**
 * What follows an export: the stack's settings file, holding the settings the command was given
 * (never the API key), and the steps as shell lines a user pastes as they are into a fresh shell.
 * Every value the service never returns, and the API key, is read from an environment variable,
 * so no secret is printed, written to a file, kept in the shell's history or shown in the process
 * list; a variable left unset stops its line with the variable's name, before anything is stored.
 * The lines are bash's (and zsh's): `<<<` and `${VAR:?}`.
 */
import * as path from "node:path";
import type { Language } from "./files";
import { snakeCaseOf } from "./names";
import type { AccountExport } from "./read";

/** Pulumi's rule for project and stack names. */
export const PULUMI_NAME = /^[A-Za-z0-9_.-]+$/;
export const DEFAULT_STACK = "prod";

/** The value of a stack setting the command writes, as `Pulumi.<stack>.yaml` holds it. */
export function stackSettingsFile(settings: Record<string, string>): string {
  return `config:\n${Object.entries(settings)
    .map(([key, value]) => `  ${key}: ${JSON.stringify(value)}\n`)
    .join("")}`;
}

export function stackSettingsFileName(stack: string): string {
  return `Pulumi.${stack}.yaml`;
}

/** `connectionWarehousePassword` → `CONNECTION_WAREHOUSE_PASSWORD`, one variable a setting. */
function environmentNames(settings: AccountExport["settings"]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set(["ETL_API_KEY"]);
  for (const setting of settings) {
    const base = snakeCaseOf(setting.name).toUpperCase();
    let name = base;
    for (let n = 2; taken.has(name); n += 1) name = `${base}_${n}`;
    taken.add(name);
    names.set(setting.name, name);
  }
  return names;
}

/** The account's own text (an object's name) made one line, so it cannot end a comment early. */
function oneLine(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029]/gu, " ");
}

function shellQuoted(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * `pulumi config set`, the value on its input from the variable: never in the process list, and
 * taken as it is (a leading `-` too). An unset variable stops the line before `pulumi` runs.
 */
function configLine(name: string, variable: string, secret: boolean): string {
  return `pulumi config set${secret ? " --secret" : ""} ${name} <<< "\${${variable}:?is not set}"`;
}

/** What installs the packages the project names; YAML names none. */
const INSTALL: Record<Language, string | undefined> = {
  typescript: "npm install",
  python: "pip install -r requirements.txt",
  go: "go mod tidy",
  yaml: undefined,
};

export interface StepsOptions {
  out: string;
  stack: string;
  language: Language;
  surface: "plugin" | "dynamic";
}

/** The variables to set before the steps, each with what it holds. */
export function variableLines(settings: AccountExport["settings"]): string[] {
  if (settings.length === 0) return [];
  const variables = environmentNames(settings);
  const width = Math.max(...[...variables.values()].map((name) => name.length));
  const lines = ["values the service never returns, which the steps read from these environment variables (set each before pasting):"];
  for (const setting of settings) {
    const variable = `${variables.get(setting.name)}:`.padEnd(width + 1);
    lines.push(`  ${variable}  ${setting.what} of ${oneLine(setting.object)}${setting.secret ? ", a secret" : ""}`);
  }
  return lines;
}

/** The lines to paste, in order: into the folder, the stack, its secrets, the packages, the import, the preview. */
export function nextSteps(settings: AccountExport["settings"], options: StepsOptions): string[] {
  const variables = environmentNames(settings);
  const install = INSTALL[options.language];
  const adopt =
    options.surface === "plugin"
      ? ["pulumi import --file import.json --generate-code=false --yes", "pulumi preview"]
      : // Each resource's importId adopts its object on the first up, which the preview shows.
        ["pulumi preview", "pulumi up"];
  return [
    `cd ${shellQuoted(path.resolve(options.out))}`,
    `pulumi stack init ${options.stack}`,
    configLine("etl:apiKey", "ETL_API_KEY", true),
    ...settings.map((setting) => configLine(setting.name, variables.get(setting.name)!, setting.secret)),
    ...(install === undefined ? [] : [install]),
    ...adopt,
  ];
}
