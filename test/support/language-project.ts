/**
 * Projects in each language the SDKs serve: a copy of the program under
 * test/languages/programs/<language>, with a Pulumi.yaml that finds the plugin through `plugins:`
 * and the SDK the way a user's project would (the Python of a virtual environment with
 * `pulumi`, the SDK on its path; the Go SDK through a `replace` of its module; the TypeScript SDK, compiled, in
 * node_modules), and a stack of its own on a file backend.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { SDK_NAMES } from "pulumi-etl/plugin";
import { newWorkDir, PLUGIN_DIR, pulumiCommand, testEnv, type Service, type TestStack } from "./engine";

export const LANGUAGES = ["typescript", "python", "go"] as const;
export type Language = (typeof LANGUAGES)[number];

const REPO_ROOT = path.resolve(__dirname, "..", "..");
const PROGRAMS = path.join(REPO_ROOT, "test", "languages", "programs");

function languagesRoot(): string {
  const root = process.env.PULUMI_ETL_LANGUAGES_ROOT;
  if (!root) throw new Error("PULUMI_ETL_LANGUAGES_ROOT is not set: run the tests through `npm test` (scripts/setup.sh sets it)");
  return root;
}

function runtimeOf(language: Language): string {
  switch (language) {
    case "python":
      return "runtime: python\n";
    case "go":
      return "runtime: go\n";
    case "typescript":
      return "runtime: nodejs\n";
  }
}

/** What each language needs beside its program to find the SDK. */
function placeSdk(language: Language, dir: string): Record<string, string> {
  switch (language) {
    case "python": {
      // Installed as pip installs it (its metadata carries the version the SDK reports), from a
      // copy, since a build writes beside the sources; the host runs the program with the
      // environment's interpreter, which holds pulumi.
      const python = path.join(languagesRoot(), "python", "bin", "python");
      const source = path.join(dir, "..", "sdk-python");
      const site = path.join(dir, "..", "site-packages");
      cpSync(path.join(REPO_ROOT, "sdk", "python"), source, { recursive: true });
      execFileSync(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--no-build-isolation", "--target", site, source], { stdio: "pipe" });
      return { PULUMI_PYTHON_CMD: python, PYTHONPATH: site };
    }
    case "go": {
      const module = path.posix.dirname(SDK_NAMES.go);
      const goMod = readFileSync(path.join(dir, "go.mod"), "utf8").replace(/^replace .*$/m, `replace ${module} => ${path.join(REPO_ROOT, "sdk", "go")}`);
      writeFileSync(path.join(dir, "go.mod"), goMod);
      return { GOFLAGS: "-mod=readonly -buildvcs=false", GOTOOLCHAIN: "local" };
    }
    case "typescript": {
      const installed = path.join(dir, "node_modules", ...SDK_NAMES.nodejs.split("/"));
      mkdirSync(path.dirname(installed), { recursive: true });
      symlinkSync(path.join(REPO_ROOT, "sdk", "nodejs", "bin"), installed);
      writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "etl-lifecycle", private: true }));
      return {};
    }
  }
}

export interface LanguageStack extends TestStack {
  language: Language;
}

export async function createLanguageStack(language: Language, service: Service, config: Record<string, { value: string; secret?: boolean }>): Promise<LanguageStack> {
  const { workDir, backend } = newWorkDir(`${language}-lifecycle`);
  const dir = path.join(workDir, "project");
  cpSync(path.join(PROGRAMS, language), dir, { recursive: true });
  const plugins = `plugins:\n  providers:\n    - name: etl\n      path: ${PLUGIN_DIR}\n`;
  writeFileSync(path.join(dir, "Pulumi.yaml"), `name: etl-${language}-lifecycle\n${runtimeOf(language)}${plugins}`);
  const env = { ...testEnv(backend), ...placeSdk(language, dir) };
  const stack = await LocalWorkspace.createStack({ stackName: "test", workDir: dir }, { pulumiCommand: await pulumiCommand(), envVars: env });
  await stack.setAllConfig({
    "etl:apiUrl": { value: service.url },
    "etl:accountId": { value: service.accountId },
    "etl:apiKey": { value: service.apiKey, secret: true },
    ...config,
  });
  return { language, stack, workDir, dispose: () => rmSync(workDir, { recursive: true, force: true }) };
}
