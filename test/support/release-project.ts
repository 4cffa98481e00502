/**
 * The language lifecycle's programs (test/languages/programs/<language>) as a user runs them who
 * has only the release folder: an empty folder outside the repository, a Pulumi home of its own
 * with the plugin installed from its archive, and the SDK installed from its package: the npm
 * tarballs for TypeScript, the wheel in a new virtual environment for Python, the module by
 * version through the release's Go proxy folder for Go. Python and Go run with no Node.js on
 * the PATH their engine sees.
 */
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { SDK_NAMES } from "pulumi-etl/plugin";
import { pulumiCommand, type Service } from "./engine";
import type { Language, LanguageStack } from "./language-project";
import { installPluginFromArchive, newUserMachine, RELEASE_DIR, releaseFile, VERSION, type UserMachine } from "./release";

type ConfigValues = Record<string, { value: string; secret?: boolean }>;

const PROGRAMS = path.resolve(__dirname, "..", "languages", "programs");
const RUNTIMES: Record<Language, string> = { typescript: "nodejs", python: "python", go: "go" };
/** The Go SDK's module: its package's import path less the package folder. */
const GO_MODULE = path.posix.dirname(SDK_NAMES.go);

/** `package.json` naming the two npm tarballs, as a project that installed them from the registry would. */
function installTypescript(machine: UserMachine): void {
  const pkg = {
    name: "etl-lifecycle",
    private: true,
    dependencies: {
      "pulumi-etl": `file:${releaseFile(`pulumi-etl-${VERSION}.tgz`)}`,
      [SDK_NAMES.nodejs]: `file:${releaseFile(`pulumi-etl-sdk-${VERSION}.tgz`)}`,
      "@pulumi/pulumi": "^3.270.0",
    },
    devDependencies: { typescript: "~5.9.3", "@types/node": "^22" },
  };
  writeFileSync(path.join(machine.dir, "package.json"), JSON.stringify(pkg, null, 2));
  machine.exec("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"]);
}

/** A new virtual environment holding the wheel (and `pulumi`, which pip resolves from its range). */
function installPython(machine: UserMachine): Record<string, string> {
  const venv = path.join(machine.dir, "venv");
  machine.exec("python3", ["-m", "venv", venv]);
  machine.exec(path.join(venv, "bin", "python"), ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", releaseFile(`pulumi_etl-${VERSION}-py3-none-any.whl`)]);
  return { PULUMI_PYTHON_CMD: path.join(venv, "bin", "python") };
}

/** The module by version through the release's proxy folder; the checksum database does not know it. */
function installGo(machine: UserMachine): Record<string, string> {
  const goEnv = {
    GOPROXY: `file://${path.join(RELEASE_DIR, "goproxy")},${execFileSync("go", ["env", "GOPROXY"], { encoding: "utf8" }).trim()}`,
    GONOSUMDB: GO_MODULE,
    GOFLAGS: "-mod=readonly -buildvcs=false",
  };
  const goMod = readFileSync(path.join(machine.dir, "go.mod"), "utf8").replace(/^replace .*$/m, "");
  writeFileSync(path.join(machine.dir, "go.mod"), goMod);
  machine.exec("go", ["get", `${GO_MODULE}@v${VERSION}`], { ...goEnv, GOFLAGS: "-mod=mod -buildvcs=false" });
  return goEnv;
}

function installSdk(language: Language, machine: UserMachine): Record<string, string> {
  if (language === "typescript") {
    installTypescript(machine);
    return {};
  }
  return language === "python" ? installPython(machine) : installGo(machine);
}

/** The lifecycle's program for `language`, installed from the release folder alone. */
export async function createReleaseStack(language: Language, service: Service, config: ConfigValues): Promise<LanguageStack> {
  const machine = newUserMachine(`${language}-release`, { withoutNode: language !== "typescript" });
  cpSync(path.join(PROGRAMS, language), machine.dir, { recursive: true });
  writeFileSync(path.join(machine.dir, "Pulumi.yaml"), `name: etl-${language}-release\nruntime: ${RUNTIMES[language]}\n`);
  const sdkEnv = installSdk(language, machine);
  await installPluginFromArchive(machine);
  const env = { ...machine.env, ...sdkEnv, ETL_API_URL: "", ETL_ACCOUNT_ID: "", ETL_API_KEY: "" };
  const stack = await LocalWorkspace.createStack({ stackName: "test", workDir: machine.dir }, { pulumiCommand: await pulumiCommand(), envVars: env });
  await stack.setAllConfig({
    "etl:apiUrl": { value: service.url },
    "etl:accountId": { value: service.accountId },
    "etl:apiKey": { value: service.apiKey, secret: true },
    ...config,
  });
  return { language, stack, workDir: path.dirname(machine.dir), dispose: machine.dispose };
}
