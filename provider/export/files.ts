/**
 * The files an export writes: the project (Pulumi.yaml and the language's own), the program, the
 * import file for `pulumi import --file`, and each package's flow. Nothing in them depends on
 * the time or the order the service answered in, so exporting an unchanged account again writes
 * the same bytes.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { SDK_NAMES, typeToken } from "../plugin/schema";
import { packageVersion } from "../plugin/version";
import { goProgram } from "./program/go";
import { inputSpec } from "./program/layout";
import { pythonProgram } from "./program/python";
import { typescriptProgram, type Surface } from "./program/typescript";
import type { AccountExport } from "./read";

export const LANGUAGES = ["typescript", "python", "go"] as const;
export type Language = (typeof LANGUAGES)[number];

export interface ProjectOptions {
  language: Language;
  surface: Surface;
  project: string;
  accountId: string;
}

const RUNTIMES: Record<Language, string> = { typescript: "nodejs", python: "python", go: "go" };
const PROGRAM_FILES: Record<Language, string> = { typescript: "index.ts", python: "__main__.py", go: "main.go" };

/** The format `pulumi import --file` reads: each resource's type token, its name in the stack, and its id. */
export function importFile(account: AccountExport): string {
  const resources = account.objects.map((object) => ({ type: typeToken(object.kind), name: object.name, id: object.id }));
  return `${JSON.stringify({ resources }, null, 2)}\n`;
}

function languageFiles(options: ProjectOptions): Record<string, string> {
  const version = packageVersion();
  switch (options.language) {
    case "typescript": {
      const sdk = options.surface === "plugin" ? { [SDK_NAMES.nodejs]: `^${version}` } : { "pulumi-etl": `^${version}` };
      const manifest = { name: options.project, private: true, main: "index.ts", dependencies: { "@pulumi/pulumi": "^3.0.0", ...sdk } };
      return { "package.json": `${JSON.stringify(manifest, null, 2)}\n` };
    }
    case "python":
      return { "requirements.txt": `pulumi>=3.0.0,<4.0.0\n${SDK_NAMES.python}>=${version}\n` };
    case "go":
      // `go mod tidy` adds the requirements, at the versions the machine can reach.
      return { "go.mod": `module ${options.project}\n\ngo 1.22\n` };
  }
}

function programOf(account: AccountExport, options: ProjectOptions): string {
  if (options.language === "typescript") return typescriptProgram(account, options.surface);
  return options.language === "python" ? pythonProgram(account, inputSpec) : goProgram(account, inputSpec);
}

/** Every file of the export, by its path in the output folder. */
export function exportFiles(account: AccountExport, options: ProjectOptions): Record<string, string> {
  const manifest = `name: ${options.project}\ndescription: The set-up of the ETL account ${options.accountId}, as etl-export read it.\nruntime: ${RUNTIMES[options.language]}\n`;
  return {
    "Pulumi.yaml": manifest,
    ...languageFiles(options),
    [PROGRAM_FILES[options.language]]: programOf(account, options),
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
