/**
 * The Pulumi CLI run as a terminal or a CI runner runs it: `pulumi up` as a child process of its
 * own, which a test can interrupt (SIGINT, SIGTERM) or kill (SIGKILL) mid-operation. The project
 * is a folder with `pulumi-etl` installed in its node_modules, whose program declares the
 * resources listed in the stack's `test:resources` setting, on the surface `test:surface` names.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import * as path from "node:path";
import { killQuietly, procFile } from "./processes";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { newWorkDir, testWorkspace, type Service } from "./engine";
import type { ResourceKind } from "pulumi-etl/plugin";
import { writeProjectWithInstalledPackage } from "./installed-package.mts";
import type { Surface } from "./surfaces";

/** One resource of the program: `{ "$ref": "name" }` in `args` stands for that resource's id. */
export interface DeclaredResource {
  kind: ResourceKind;
  name: string;
  args: Record<string, unknown>;
}

const PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const etl = require("pulumi-etl");
const config = new pulumi.Config("test");
const declared = JSON.parse(config.get("resources") || "[]");
const onPlugin = config.get("surface") === "plugin";
const made = {};
const resolve = (value) => (value && typeof value === "object" && "$ref" in value ? made[value.$ref].id : value);
for (const r of declared) {
  const args = Object.fromEntries(Object.entries(r.args).map(([k, v]) => [k, resolve(v)]));
  made[r.name] = onPlugin ? new pulumi.CustomResource("etl:index:" + r.kind, r.name, args) : new etl[r.kind](r.name, args);
}
module.exports = Object.fromEntries(Object.entries(made).map(([name, resource]) => [name, resource.id]));
`;

export interface RunningCli {
  child: ChildProcess;
  /** Everything the CLI printed so far, stdout and stderr together. */
  output(): string;
  /** Resolves when the CLI has exited, with its exit code (null when a signal ended it). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>;
}

export interface CliProject {
  dir: string;
  stack: Stack;
  env: Record<string, string>;
  /** Sets the resources the program declares. */
  declare(resources: DeclaredResource[]): Promise<void>;
  /** Starts `pulumi <args>` on the stack, in the project folder. */
  run(args: string[]): RunningCli;
  /** Runs `pulumi <args>` to its end. */
  runToEnd(args: string[]): Promise<{ code: number | null; output: string }>;
  /** Removes the project and its state; call once the stack is destroyed. */
  dispose(): void;
}

/** The plugin as a user's project finds it: from the installed package, through `plugins:`. */
const PLUGIN_ENTRY = "plugins:\n  providers:\n    - name: etl\n      path: node_modules/pulumi-etl/bin\n";

export interface CliProjectOptions {
  surface?: Surface;
  /** On the plugin: found through the project's `plugins:` entry (default), or installed in PULUMI_HOME. */
  pluginFrom?: "project" | "installed";
  env?: Record<string, string>;
}

export async function createCliProject(
  name: string,
  service: Service,
  config: Record<string, string> = {},
  options: CliProjectOptions = {},
): Promise<CliProject> {
  const { surface = "dynamic", pluginFrom = "project" } = options;
  const { workDir, backend } = newWorkDir(name);
  const dir = path.join(workDir, "project");
  const pluginEntry = surface === "plugin" && pluginFrom === "project" ? PLUGIN_ENTRY : "";
  writeProjectWithInstalledPackage(dir, {
    "Pulumi.yaml": `name: etl-${name}\nruntime: nodejs\n${pluginEntry}`,
    "index.js": PROGRAM,
  });
  const workspace = await testWorkspace(backend, options.env);
  const env = workspace.envVars;
  const stack = await LocalWorkspace.createStack({ stackName: "test", workDir: dir }, workspace);
  await stack.setAllConfig({
    "etl:apiUrl": { value: service.url },
    "etl:accountId": { value: service.accountId },
    "etl:apiKey": { value: service.apiKey, secret: true },
    "test:surface": { value: surface },
    ...Object.fromEntries(Object.entries(config).map(([key, value]) => [key, { value }])),
  });
  const binary = pulumiBinary();
  const run = (args: string[]): RunningCli => {
    const child = spawn(binary, [...args, "--stack", "test", "--non-interactive", "--color", "never"], {
      cwd: dir,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let text = "";
    child.stdout!.on("data", (chunk: Buffer) => (text += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (text += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>((resolve) =>
      child.on("close", (code, signal) => resolve({ code, signal, output: text })),
    );
    return { child, output: () => text, exited };
  };
  return {
    dir,
    stack,
    env,
    declare: (resources) => stack.setConfig("test:resources", { value: JSON.stringify(resources) }),
    run,
    runToEnd: async (args) => {
      const { code, output } = await run(args).exited;
      return { code, output };
    },
    dispose: () => {
      // A killed CLI leaves its language host behind, idle but alive.
      for (const { pid } of processesOf({ env })) killQuietly(pid);
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}

/** Runs `pulumi <args>` outside any project, to its end. */
export async function runPulumi(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(pulumiBinary(), args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, output })));
}

function pulumiBinary(): string {
  return path.join(process.env.PULUMI_ETL_ENGINE_ROOT ?? "", "bin", "pulumi");
}

/**
 * The processes still running with this project's environment (the CLI, its language host, the
 * program and the providers all inherit the project's own backend address), with their command
 * lines: none of them outlives a kill unseen, whoever became its parent.
 */
export function processesOf(project: Pick<CliProject, "env">): Array<{ pid: number; command: string }> {
  const marker = `PULUMI_BACKEND_URL=${project.env.PULUMI_BACKEND_URL}\0`;
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry) && procFile(entry, "environ").includes(marker))
    .map((pid) => ({ pid: Number(pid), command: procFile(pid, "cmdline").replaceAll("\0", " ").trim() }));
}

/** Polls until `check` holds, or fails after `timeoutMs`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs the project's installed `etl-recover` on its stack, in its folder, with the engine on PATH, to its end. */
export function runEtlRecover(project: Pick<CliProject, "dir" | "env">, args: string[] = []): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const cli = path.join(project.dir, "node_modules", "pulumi-etl", "dist", "provider", "recover", "cli.js");
    const engineBin = path.join(process.env.PULUMI_ETL_ENGINE_ROOT ?? "", "bin");
    const child = spawn(process.execPath, [cli, "--stack", "test", ...args], {
      cwd: project.dir,
      env: { ...process.env, ...project.env, PATH: `${engineBin}${path.delimiter}${process.env.PATH}` },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => resolve({ code, output }));
  });
}
