/**
 * Projects in each language the SDKs serve, and in YAML, run by their language hosts through the
 * plugin:
 * a copy of a test program (test/languages/programs/<language>) or an example run from its own
 * folder, finding the SDK the way a user's project does (the Python SDK installed with pip and
 * run by the interpreter of a virtual environment holding `pulumi`; the Go SDK through the
 * `replace` of its module in go.mod; the TypeScript SDK, compiled, in node_modules; YAML needs
 * no SDK: its host reads the plugin's schema), each stack on a file backend of its own.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { SDK_NAMES } from "pulumi-etl/plugin";
import { deferOperationResults } from "./deferred-results";
import { newWorkDir, PLUGIN_DIR, testWorkspace, type Service, type TestStack } from "./engine";
import { goProgramEnv } from "./go-flags.mts";

export const LANGUAGES = ["typescript", "python", "go", "yaml"] as const;
export type Language = (typeof LANGUAGES)[number];
type ConfigValues = Record<string, { value: string; secret?: boolean }>;

const REPO_ROOT = path.resolve(__dirname, "..", "..");
const PROGRAMS = path.join(REPO_ROOT, "test", "languages", "programs");
const RUNTIMES: Record<Language, string> = { typescript: "nodejs", python: "python", go: "go", yaml: "yaml" };

function languagesRoot(): string {
  const root = process.env.PULUMI_ETL_LANGUAGES_ROOT;
  if (!root) throw new Error("PULUMI_ETL_LANGUAGES_ROOT is not set: run the tests through `npm test` (scripts/setup.sh sets it)");
  return root;
}

/**
 * The Python SDK installed as pip installs it (its metadata carries the version it reports),
 * from a copy since a build writes beside the sources; the host runs programs with the
 * environment's interpreter, which holds pulumi.
 */
function pythonEnv(scratch: string): Record<string, string> {
  const python = path.join(languagesRoot(), "python", "bin", "python");
  const source = path.join(scratch, "sdk-python");
  const site = path.join(scratch, "site-packages");
  cpSync(path.join(REPO_ROOT, "sdk", "python"), source, { recursive: true });
  execFileSync(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--no-build-isolation", "--target", site, source], {
    stdio: "pipe",
  });
  return { PULUMI_PYTHON_CMD: python, PYTHONPATH: site };
}

/** The environment a language's programs need to find its SDK; `scratch` is the test's own folder. */
function sdkEnv(language: Language, scratch: string): Record<string, string> {
  if (language === "python") return pythonEnv(scratch);
  // go.sum is committed beside each program: nothing is resolved anew.
  if (language === "go") return goProgramEnv();
  return {};
}

/** The compiled TypeScript SDK under the project's node_modules, as `npm install sdk/nodejs/bin` puts it. */
function installTypescriptSdk(dir: string): void {
  const installed = path.join(dir, "node_modules", ...SDK_NAMES.nodejs.split("/"));
  mkdirSync(path.dirname(installed), { recursive: true });
  symlinkSync(path.join(REPO_ROOT, "sdk", "nodejs", "bin"), installed);
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: path.basename(dir), private: true }));
}

async function stackIn(dir: string, stackName: string, backend: string, env: Record<string, string>, service: Service, config: ConfigValues) {
  const stack = await LocalWorkspace.createStack({ stackName, workDir: dir }, await testWorkspace(backend, env));
  deferOperationResults(stack, backend);
  await stack.setAllConfig({
    "etl:apiUrl": { value: service.url },
    "etl:accountId": { value: service.accountId },
    "etl:apiKey": { value: service.apiKey, secret: true },
    ...config,
  });
  return stack;
}

export interface LanguageStack extends TestStack {
  language: Language;
}

/**
 * A copy of the language's test program in a work folder inside the repository (Go's `replace`
 * and Node's module lookup reach sdk/ from there as from the program's own folder).
 */
export async function createLanguageStack(language: Language, service: Service, config: ConfigValues): Promise<LanguageStack> {
  const { workDir, backend } = newWorkDir(`${language}-lifecycle`);
  const dir = path.join(workDir, "project");
  cpSync(path.join(PROGRAMS, language), dir, { recursive: true });
  return projectStack(language, `etl-${language}-lifecycle`, { dir, workDir, backend }, service, config);
}

/**
 * A program written into `<workDir>/project` by something else (`etl-export`), made to find the
 * plugin and the SDK as the test programs do; a Go program gets the test program's module files
 * (their requirements, and go.sum, so nothing is resolved anew).
 */
export async function createProjectStack(
  language: Language,
  name: string,
  folders: { dir: string; workDir: string; backend: string },
  service: Service,
  config: ConfigValues,
): Promise<LanguageStack> {
  if (language === "go") for (const file of ["go.mod", "go.sum"]) cpSync(path.join(PROGRAMS, "go", file), path.join(folders.dir, file));
  return projectStack(language, name, folders, service, config);
}

/**
 * A folder of the test's own holding a link to the plugin: the YAML host caches the schema of a
 * plugin beside the folder it is found in (found in the repository's bin/, as `schema-etl.json`
 * at the repository's root), and would keep it there across rebuilds of the plugin (the folder's
 * time does not change).
 */
export function linkedPluginDir(workDir: string): string {
  const dir = path.join(workDir, "plugin", "bin");
  mkdirSync(dir, { recursive: true });
  symlinkSync(path.join(PLUGIN_DIR, "pulumi-resource-etl"), path.join(dir, "pulumi-resource-etl"));
  return dir;
}

async function projectStack(
  language: Language,
  name: string,
  folders: { dir: string; workDir: string; backend: string },
  service: Service,
  config: ConfigValues,
): Promise<LanguageStack> {
  const { dir, workDir, backend } = folders;
  const plugins = `plugins:\n  providers:\n    - name: etl\n      path: ${language === "yaml" ? linkedPluginDir(workDir) : PLUGIN_DIR}\n`;
  // A YAML program is its Pulumi.yaml: the plugin's entry goes after it.
  if (language === "yaml") appendFileSync(path.join(dir, "Pulumi.yaml"), plugins);
  else writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: ${RUNTIMES[language]}\n${plugins}`);
  if (language === "typescript") installTypescriptSdk(dir);
  const stack = await stackIn(dir, "test", backend, sdkEnv(language, workDir), service, config);
  return { language, stack, workDir, dispose: () => rmSync(workDir, { recursive: true, force: true }) };
}

/** An example run from its own folder, as `pulumi up` there would; its stack file is removed by `dispose`. */
export async function createExampleStack(
  language: Exclude<Language, "typescript">,
  exampleDir: string,
  service: Service,
  config: ConfigValues,
): Promise<LanguageStack> {
  const { workDir, backend } = newWorkDir(`${path.basename(exampleDir)}`);
  const stackName = `test-${path.basename(workDir)}`;
  const stack = await stackIn(exampleDir, stackName, backend, sdkEnv(language, workDir), service, config);
  const dispose = () => {
    rmSync(path.join(exampleDir, `Pulumi.${stackName}.yaml`), { force: true });
    rmSync(workDir, { recursive: true, force: true });
  };
  return { language, stack, workDir, dispose };
}
