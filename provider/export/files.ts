/**
 * The files an export writes: the project (Pulumi.yaml and the language's own), the program, the
 * import file for `pulumi import --file`, and each package's flow. The project names the
 * released SDK (or, in YAML, the plugin) at this package's version, so the engine runs the plugin
 * of that version, installed or fetched from its download address. Nothing in them depends on
 * the time or the order the service answered in, so exporting an unchanged account again writes
 * the same bytes.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { defaultPluginDownloadURL, PACKAGE, SDK_NAMES, typeToken } from "../plugin/schema";
import { packageVersion } from "../plugin/version";
import { goProgram } from "./program/go";
import { programSchema } from "./program/layout";
import { pythonProgram } from "./program/python";
import { typescriptProgram, type Surface } from "./program/typescript";
import { yamlProgram } from "./program/yaml";
import type { AccountExport } from "./read";

export const LANGUAGES = ["typescript", "python", "go", "yaml"] as const;
export type Language = (typeof LANGUAGES)[number];

export interface ProjectOptions {
  language: Language;
  surface: Surface;
  project: string;
  accountId: string;
}

const RUNTIMES: Record<Language, string> = { typescript: "nodejs", python: "python", go: "go", yaml: "yaml" };
/** A YAML program is the project file itself, after the project's lines. */
const PROGRAM_FILES: Record<Language, string> = { typescript: "index.ts", python: "__main__.py", go: "main.go", yaml: "Pulumi.yaml" };
/** The Go SDK's module: its package's path less the package's folder. */
const GO_SDK_MODULE = SDK_NAMES.go.slice(0, SDK_NAMES.go.lastIndexOf("/"));

/** The format `pulumi import --file` reads: each resource's type token, its name in the stack, and its id. */
export function importFile(account: AccountExport): string {
  const resources = account.objects.map((object) => ({ type: typeToken(object.kind), name: object.name, id: object.id }));
  return `${JSON.stringify({ resources }, null, 2)}\n`;
}

function languageFiles(options: ProjectOptions): Record<string, string> {
  const version = packageVersion();
  switch (options.language) {
    case "typescript": {
      const sdk = options.surface === "plugin" ? { [SDK_NAMES.nodejs]: version } : { "pulumi-etl": version };
      const manifest = { name: options.project, private: true, main: "index.ts", dependencies: { "@pulumi/pulumi": "^3.0.0", ...sdk } };
      return { "package.json": `${JSON.stringify(manifest, null, 2)}\n` };
    }
    case "python":
      return { "requirements.txt": `pulumi>=3.0.0,<4.0.0\n${SDK_NAMES.python}==${version}\n` };
    case "go":
      // `go mod tidy` adds what the SDK requires (the Pulumi Go SDK) and writes go.sum.
      return { "go.mod": `module ${options.project}\n\ngo 1.22\n\nrequire ${GO_SDK_MODULE} v${version}\n` };
    case "yaml":
      return { [YAML_PACKAGE_FILE]: yamlPackageDeclaration(version) };
  }
}

/** Where a YAML program declares the package it uses: the YAML host reads every such file under the project. */
const YAML_PACKAGE_FILE = "sdks/etl.yaml";

/** The plugin's name, version and download address, which the YAML host hands the engine as the program's requirement. */
function yamlPackageDeclaration(version: string): string {
  return [`packageDeclarationVersion: 1`, `name: ${PACKAGE}`, `version: ${version}`, `downloadUrl: ${defaultPluginDownloadURL(version)}`, ""].join("\n");
}

function programOf(account: AccountExport, options: ProjectOptions): string {
  if (options.language === "typescript") return typescriptProgram(account, options.surface);
  if (options.language === "yaml") return yamlProgram(account);
  return options.language === "python" ? pythonProgram(account, programSchema()) : goProgram(account, programSchema());
}

/** Every file of the export, by its path in the output folder. */
export function exportFiles(account: AccountExport, options: ProjectOptions): Record<string, string> {
  const manifest = `name: ${options.project}\ndescription: The set-up of the ETL account ${options.accountId}, as etl-export read it.\nruntime: ${RUNTIMES[options.language]}\n`;
  const program = programOf(account, options);
  return {
    "Pulumi.yaml": manifest,
    ...languageFiles(options),
    [PROGRAM_FILES[options.language]]: options.language === "yaml" ? `${manifest}\n${program}` : program,
    ...(options.surface === "plugin" ? { "import.json": importFile(account) } : {}),
    ...Object.fromEntries(account.files.map((file) => [file.path, file.content])),
  };
}

/** Writes the files; flows of packages no longer exported are removed, nothing else is. */
export function writeFiles(outDir: string, files: Record<string, string>): { written: number; unchanged: number } {
  let written = 0;
  let unchanged = 0;
  for (const [name, content] of Object.entries(files)) {
    const target = path.join(outDir, name);
    mkdirSync(path.dirname(target), { recursive: true });
    if (readIfThere(target) === content) {
      unchanged += 1;
      continue;
    }
    writeFileSync(target, content);
    written += 1;
  }
  removeStaleFlows(outDir, files);
  return { written, unchanged };
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function removeStaleFlows(outDir: string, files: Record<string, string>): void {
  const folder = path.join(outDir, "flows");
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) if (name.endsWith(".json") && files[`flows/${name}`] === undefined) rmSync(path.join(folder, name));
}
