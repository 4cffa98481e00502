/**
 * Projects as a user runs them who has only the release folder: an empty folder outside the
 * repository, a Pulumi home of its own with the plugin installed from its archive, the SDK from
 * its package. The language lifecycle's TypeScript and Go programs, and projects `etl-export` wrote.
 */
import { cpSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { SDK_NAMES } from "pulumi-etl/plugin";
import { deferOperationResults } from "./deferred-results";
import { pulumiCommand, type Service } from "./engine";
import { goProgramEnv } from "./go-flags.mts";
import type { Language, LanguageStack } from "./language-project";
import {
  GO_MODULE,
  goReleaseEnv,
  installPluginFromArchive,
  newUserMachine,
  newVirtualEnv,
  RELEASE_DIR,
  releaseFile,
  VERSION,
  type UserMachine,
} from "./release";

type ConfigValues = Record<string, { value: string; secret?: boolean }>;

const PROGRAMS = path.resolve(__dirname, "..", "languages", "programs");

/** `package.json` naming the two npm tarballs, as a project that installed them from the registry would. */
function installTypescript(machine: UserMachine): void {
  const pkg = {
    name: "etl-lifecycle",
    private: true,
    dependencies: {
      "pulumi-etl": `file:${releaseFile(`pulumi-etl-${VERSION}.tgz`)}`,
      [SDK_NAMES.nodejs]: `file:${releaseFile(`pulumi-etl-sdk-${VERSION}.tgz`)}`,
      "@pulumi/pulumi": "^3.276.0",
    },
    devDependencies: { typescript: "~5.9.3", "@types/node": "^22" },
  };
  writeFileSync(path.join(machine.dir, "package.json"), JSON.stringify(pkg, null, 2));
  machine.exec("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"]);
  // The packages ask for @pulumi/pulumi by range: npm must settle on one copy for both.
  const copies = machine.exec("npm", ["ls", "@pulumi/pulumi", "--all", "--parseable"]).trim().split("\n");
  if (new Set(copies).size !== 1) throw new Error(`npm installed ${copies.length} copies of @pulumi/pulumi:\n${copies.join("\n")}`);
}

/**
 * The Installation page's Go steps, command for command, in the folder holding only the program's
 * main.go: `go mod init`, `go get` of the SDK at the release's version, then `go mod tidy`, which
 * adds Pulumi's Go SDK and the checksums the build needs; GOPROXY and GONOSUMDB as the page sets
 * them (the machine's environment holds them).
 */
function installGo(machine: UserMachine): void {
  const flags = { GOFLAGS: "-buildvcs=false" };
  machine.exec("go", ["mod", "init", "etl-release-go"], flags);
  machine.exec("go", ["get", `${GO_MODULE}@v${VERSION}`], flags);
  machine.exec("go", ["mod", "tidy"], flags);
}

/** The Go program's executable, which the project's Pulumi.yaml names. */
export const GO_PROGRAM_BINARY = "etl-release-go";

/**
 * The Installation page's other way to run a Go program: built once with `go build -o` and named
 * by Pulumi.yaml's `runtime.options.binary`, so the language host runs it at each operation rather
 * than building it again (the host's own build is the template etl-go's, in templates.test.ts).
 * Returns Pulumi.yaml's `runtime` entry.
 */
function buildGo(machine: UserMachine): string {
  machine.exec("go", ["build", "-o", GO_PROGRAM_BINARY, "."]);
  return `runtime:\n  name: go\n  options:\n    binary: ./${GO_PROGRAM_BINARY}\n`;
}

export interface ReleaseStack extends LanguageStack {
  machine: UserMachine;
}

/**
 * The lifecycle's TypeScript program (the two npm tarballs installed with npm) or Go program (the
 * SDK through `go mod init`, `go get` and `go mod tidy`, then built once; no Node.js on the CLI's
 * PATH), installed from the release folder alone, the plugin from its archive.
 */
export async function createReleaseStack(language: Language, service: Service, config: ConfigValues): Promise<ReleaseStack> {
  return releaseStackIn(await newReleaseProject(language), language, service, config);
}

/** The project `createReleaseStack` installs, with no stack yet: other tests may share its installed packages first. */
export async function newReleaseProject(language: Language): Promise<UserMachine> {
  if (language !== "typescript" && language !== "go") throw new Error(`the release lifecycle of ${language} programs is test/release/${language}.test.ts`);
  const go = language === "go";
  const machine = newUserMachine(`${language}-release`, go ? { withoutNode: true, env: goReleaseEnv() } : { withoutNode: false });
  // A Go user starts from the program alone: go.mod and go.sum are the commands' to write.
  if (go) cpSync(path.join(PROGRAMS, "go", "main.go"), path.join(machine.dir, "main.go"));
  else cpSync(path.join(PROGRAMS, language), machine.dir, { recursive: true });
  if (go) installGo(machine);
  else installTypescript(machine);
  const runtime = go ? buildGo(machine) : "runtime: nodejs\n";
  writeFileSync(path.join(machine.dir, "Pulumi.yaml"), `name: etl-${language}-release\n${runtime}`);
  await installPluginFromArchive(machine);
  return machine;
}

/** The stack `test` of a project `newReleaseProject` installed; disposing of it removes the project's machine. */
export async function releaseStackIn(machine: UserMachine, language: Language, service: Service, config: ConfigValues): Promise<ReleaseStack> {
  return { ...(await stackIn(language, machine, {}, service, config)), machine };
}

/**
 * A project `etl-export` wrote into `machine.dir`, installed as the README's etl-export section
 * says, from the release folder alone: its `Pulumi.yaml` as written, its manifest's packages
 * (requirements.txt with pip, package.json with npm, go.mod with Go through the release's
 * proxy folder; YAML needs none), and the plugin from its archive.
 */
export async function createExportedReleaseStack(language: Language, machine: UserMachine, service: Service, config: ConfigValues): Promise<LanguageStack> {
  const packagesEnv = installExportedPackages(language, machine);
  await installPluginFromArchive(machine);
  return stackIn(language, machine, packagesEnv, service, config);
}

/** The stack `test` of the machine's project, set for the emulator; credentials from its settings only. */
async function stackIn(
  language: Language,
  machine: UserMachine,
  extraEnv: Record<string, string>,
  service: Service,
  config: ConfigValues,
): Promise<LanguageStack> {
  const env = { ...machine.env, ...extraEnv, ETL_API_URL: "", ETL_ACCOUNT_ID: "", ETL_API_KEY: "" };
  const stack = await LocalWorkspace.createStack({ stackName: "test", workDir: machine.dir }, { pulumiCommand: await pulumiCommand(), envVars: env });
  // The machine's stacks keep a passphrase's secrets, which only the CLI reads: the outputs an
  // operation's result is asked for still come from it, the summaries no test reads do not.
  deferOperationResults(stack, fileURLToPath(machine.env.PULUMI_BACKEND_URL));
  await stack.setAllConfig({
    "etl:apiUrl": { value: service.url },
    "etl:accountId": { value: service.accountId },
    "etl:apiKey": { value: service.apiKey, secret: true },
    ...config,
  });
  return { language, stack, workDir: path.dirname(machine.dir), dispose: machine.dispose };
}

/** Installs what the exported manifest names; returns what the engine's environment needs to find it. */
function installExportedPackages(language: Language, machine: UserMachine): Record<string, string> {
  switch (language) {
    case "python":
      return newVirtualEnv(machine, ["--find-links", RELEASE_DIR, "-r", "requirements.txt"]);
    case "go": {
      const goEnv = goReleaseEnv();
      machine.exec("go", ["mod", "tidy"], { ...goEnv, ...goProgramEnv("mod") });
      return goEnv;
    }
    case "typescript":
      machine.exec("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", releaseFile(`pulumi-etl-sdk-${VERSION}.tgz`)]);
      return {};
    case "yaml":
      return {};
  }
}
