/**
 * The projects the unreachable benchmark runs with the `pulumi` CLI, one folder per language, each
 * the same two resources (a connection and a `Pipeline`, the component the plugin constructs, or
 * the dynamic one in TypeScript): TypeScript on the repository's built package (dynamic resources)
 * and its generated SDK (the plugin), Python in a virtual environment with the release's wheel,
 * YAML alone, and Go run from a binary built before any timing. The plugin is the release's
 * archive, installed in a Pulumi home of the benchmark's own (`npm run dist` first).
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { goProgramEnv } from "../../test/support/go-flags.mts";

export const REPO_ROOT = path.resolve(import.meta.dirname, "..", "..");
const RELEASE = path.join(REPO_ROOT, "release");
const VERSION = (JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
const ARCH = { x64: "amd64", arm64: "arm64" }[process.arch as string] ?? process.arch;
const GO_MODULE = "github.com/pulumi-etl/pulumi-etl/sdk/go";

export type Language = "typescript-dynamic" | "typescript-plugin" | "python" | "yaml" | "go";
export const LANGUAGES: Language[] = ["typescript-dynamic", "typescript-plugin", "python", "yaml", "go"];

export interface Settings {
  url: string;
  accountId: string;
  apiKey: string;
}

export interface Run {
  seconds: number;
  code: number | null;
  output: string;
}

export interface Machine {
  env: Record<string, string>;
  /** `pulumi <args>` in the project's folder to its end, timed from its spawn. */
  pulumi(project: Project, args: string[]): Promise<Run>;
}

export interface Project {
  dir: string;
  /** More environment for its commands (Python's virtual environment, active). */
  env?: Record<string, string>;
}

export function releaseFile(name: string): string {
  const file = path.join(RELEASE, name);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run dist\` first`);
  return file;
}

/** A Pulumi home and a backend of the benchmark's own under `root`, the release's plugin installed. */
export async function newMachine(root: string): Promise<Machine> {
  const home = path.join(root, "pulumi-home");
  const backend = path.join(root, "backend");
  for (const folder of [home, backend]) mkdirSync(folder, { recursive: true });
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    // The engine finds the installed release executable, not the npm package's script on the repository's PATH.
    PATH: (process.env.PATH ?? "")
      .split(path.delimiter)
      .filter((dir) => !existsSync(path.join(dir, "pulumi-resource-etl")))
      .join(path.delimiter),
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: "bench-unreachable",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    GOTOOLCHAIN: "local",
  };
  delete env.NODE_COMPILE_CACHE;
  const pulumi = ({ dir, env: more }: Project, args: string[]) =>
    new Promise<Run>((resolve, reject) => {
      const started = performance.now();
      const child = spawn("pulumi", [...args, "--non-interactive"], { cwd: dir, env: withMore(env, more), stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.on("error", reject);
      child.on("close", (code) => resolve({ seconds: (performance.now() - started) / 1000, code, output }));
    });
  const machine = { env, pulumi };
  const archive = releaseFile(`pulumi-resource-etl-v${VERSION}-linux-${ARCH}.tar.gz`);
  await expectOk(machine, { dir: root }, ["plugin", "install", "resource", "etl", VERSION, "--file", archive]);
  return machine;
}

/** `more` over `env`, a PATH in it put first. */
function withMore(env: Record<string, string>, more: Record<string, string> = {}): Record<string, string> {
  return { ...env, ...more, PATH: more.PATH === undefined ? env.PATH! : `${more.PATH}${path.delimiter}${env.PATH}` };
}

async function expectOk(machine: Machine, project: Project, args: string[]): Promise<Run> {
  const run = await machine.pulumi(project, args);
  if (run.code !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${run.code}:\n${run.output}`);
  return run;
}

/** A stack of the project in `dir` pointed at `settings`. */
export async function newStack(machine: Machine, project: Project, stack: string, settings: Settings): Promise<void> {
  await expectOk(machine, project, ["stack", "init", stack]);
  await expectOk(machine, project, ["config", "set", "etl:apiUrl", settings.url]);
  await expectOk(machine, project, ["config", "set", "etl:accountId", settings.accountId]);
  await expectOk(machine, project, ["config", "set", "--secret", "etl:apiKey", settings.apiKey]);
}

const TS_PROGRAM = (sdk: string) => `const etl = require(${JSON.stringify(sdk)});
const warehouse = new etl.Connection("warehouse", { type: "postgres", name: "warehouse", host: "warehouse.db.example.com", username: "etl", password: "bench-password" });
new etl.Pipeline("rollup", { name: "orders rollup", schedule: { cron: "0 6 * * *", timeZone: "New Delhi" }, cluster: { nodes: 3 } });
exports.connectionId = warehouse.id;
`;

/** The project's own, so the language host runs index.js rather than the repository's main. */
const PACKAGE_JSON = JSON.stringify({ name: "bench-unreachable", private: true, main: "index.js" });

const PY_PROGRAM = `import pulumi
import pulumi_etl as etl

warehouse = etl.Connection("warehouse", type="postgres", name="warehouse", host="warehouse.db.example.com", username="etl", password="bench-password")
etl.Pipeline("rollup", name="orders rollup", schedule=etl.PipelineScheduleArgs(cron="0 6 * * *", time_zone="New Delhi"), cluster=etl.PipelineClusterArgs(nodes=3))
pulumi.export("connectionId", warehouse.id)
`;

const YAML_RESOURCES = `resources:
  warehouse:
    type: etl:Connection
    properties: { type: postgres, name: warehouse, host: warehouse.db.example.com, username: etl, password: bench-password }
  rollup:
    type: etl:Pipeline
    properties: { name: orders rollup, schedule: { cron: "0 6 * * *", timeZone: New Delhi }, cluster: { nodes: 3 } }
outputs:
  connectionId: \${warehouse.id}
`;

const GO_PROGRAM = `package main

import (
	etl "${GO_MODULE}"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		warehouse, err := etl.NewConnection(ctx, "warehouse", &etl.ConnectionArgs{Type: pulumi.String("postgres"), Name: pulumi.String("warehouse"),
			Host: pulumi.String("warehouse.db.example.com"), Username: pulumi.String("etl"), Password: pulumi.String("bench-password")})
		if err != nil {
			return err
		}
		_, err = etl.NewPipeline(ctx, "rollup", &etl.PipelineArgs{Name: pulumi.String("orders rollup"),
			Schedule: &etl.PipelineScheduleArgs{Cron: pulumi.String("0 6 * * *"), TimeZone: pulumi.String("New Delhi")},
			Cluster:  &etl.PipelineClusterArgs{Nodes: pulumi.Int(3)}})
		ctx.Export("connectionId", warehouse.ID())
		return err
	})
}
`;

function project(dir: string, name: string, runtime: string, files: Record<string, string>, extra = ""): Project {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime:\n${runtime}${extra}`);
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  return { dir };
}

/**
 * The project folder of `language` under `root`, ready to run. The TypeScript folders lie inside
 * the repository (bench/.work), so Node.js finds `@pulumi/pulumi` in its node_modules.
 */
export function makeProject(language: Language, root: string): Project {
  const dir = path.join(root, language);
  switch (language) {
    case "typescript-dynamic":
      return project(dir, "bench-ts-dynamic", "  name: nodejs\n", { "index.js": TS_PROGRAM(REPO_ROOT), "package.json": PACKAGE_JSON });
    case "typescript-plugin":
      return project(dir, "bench-ts-plugin", "  name: nodejs\n", {
        "index.js": TS_PROGRAM(path.join(REPO_ROOT, "sdk", "nodejs", "bin")),
        "package.json": PACKAGE_JSON,
      });
    case "yaml":
      return project(dir, "bench-yaml", "  name: yaml\n", {}, YAML_RESOURCES);
    case "python":
      return pythonProject(dir);
    case "go":
      return goProject(dir);
  }
}

/** The Installation page's Python steps: a virtual environment, active for every command, with the release's wheel. */
function pythonProject(dir: string): Project {
  project(dir, "bench-python", "  name: python\n  options:\n    toolchain: pip\n    virtualenv: venv\n", { "__main__.py": PY_PROGRAM });
  const venv = path.join(dir, "venv");
  execFileSync("python3", ["-m", "venv", venv]);
  execFileSync(path.join(venv, "bin", "python"), [
    "-m",
    "pip",
    "install",
    "--quiet",
    "--disable-pip-version-check",
    releaseFile(`pulumi_etl-${VERSION}-py3-none-any.whl`),
  ]);
  return { dir, env: { VIRTUAL_ENV: venv, PATH: path.join(venv, "bin") } };
}

/** The Installation page's Go steps, then `go build`: the runtime's `binary` option runs it, so no timing includes a build. */
function goProject(dir: string): Project {
  project(dir, "bench-go", "  name: go\n  options:\n    binary: ./bench-go\n", { "main.go": GO_PROGRAM });
  const proxy = execFileSync("go", ["env", "GOPROXY"], { encoding: "utf8" }).trim();
  const env = {
    ...process.env,
    GOPROXY: `file://${path.join(RELEASE, "goproxy")},${proxy}`,
    GONOSUMDB: "github.com/pulumi-etl/*",
    ...goProgramEnv("mod"),
    GODEBUG: "goindex=0",
  };
  const go = (args: string[]) => execFileSync("go", args, { cwd: dir, env, encoding: "utf8", stdio: "pipe" });
  forgetCachedModule(go);
  go(["mod", "init", "bench-go"]);
  go(["get", `${GO_MODULE}@v${VERSION}`]);
  go(["mod", "tidy"]);
  go(["build", "-o", "bench-go", "."]);
  return { dir };
}

/** Every `npm run dist` makes this version anew: the module cache's copy of an earlier one goes, so `go get` takes the release's. */
function forgetCachedModule(go: (args: string[]) => string): void {
  const cache = go(["env", "GOMODCACHE"]).trim();
  const extracted = path.join(cache, `${GO_MODULE}@v${VERSION}`);
  if (existsSync(extracted)) execFileSync("chmod", ["-R", "u+w", extracted]);
  rmSync(extracted, { recursive: true, force: true });
  const download = path.join(cache, "cache", "download", GO_MODULE, "@v", `v${VERSION}`);
  for (const suffix of [".info", ".mod", ".zip", ".ziphash", ".lock"]) rmSync(download + suffix, { force: true });
}
