/**
 * The release's `pulumi new` templates as a user meets them with the release folder alone: the
 * templates' tarball unpacked, `pulumi new <its folder> --yes` in an empty folder with the service's
 * address and account as `--config` and the secrets set after it with `--secret`, which installs
 * the template's packages from the release's files (npm through a loopback registry of the
 * release's tarballs, pip from the wheel, Go through the release's module proxy folder); then up,
 * an unchanged preview and destroy against the emulator. Python, Go and YAML with no Node.js
 * on PATH; the plugin from its archive for every template but the dynamic resources'.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  findsOnPath,
  goReleaseEnv,
  installPluginFromArchive,
  newUserMachine,
  RELEASE_DIR,
  RELEASE_PIP_ENV,
  releaseFile,
  VERSION,
  type UserMachine,
} from "./release";
import { TIMEOUT_MS } from "./release-lifecycle";
import { serveNpmPackages, type NpmRegistry } from "./release-npm-registry";
import { startTestEmulator, type Emulator } from "./service";

export type Template = "etl-typescript" | "etl-typescript-dynamic" | "etl-python" | "etl-go" | "etl-yaml";

interface TemplateUser {
  /** The template runs on the plugin, installed from its archive (all but the dynamic resources). */
  plugin: boolean;
  /** Node.js on the CLI's PATH (TypeScript only). */
  node: boolean;
  /** Where the language's tools find the release's packages. */
  env(registry: NpmRegistry | undefined): Record<string, string>;
  /** What a user does after `pulumi new` before `pulumi up` (Python: activate the environment it made). */
  afterNew?(machine: UserMachine): void;
  /** The manifest `pulumi new` wrote and the line in it that names the release's SDK at its version. */
  manifest?: { file: string; names: string };
}

/** The release's npm tarballs, served as the registry serves them once published. */
export function serveReleaseNpmPackages(): Promise<NpmRegistry> {
  return serveNpmPackages([releaseFile(`pulumi-etl-${VERSION}.tgz`), releaseFile(`pulumi-etl-sdk-${VERSION}.tgz`)]);
}

/**
 * The machine's PATH less the folders holding a `pulumi-resource-etl` (the repository's
 * node_modules/.bin, which the test run puts first): the engine prefers a plugin on PATH to the
 * one installed from the archive.
 */
const pathWithoutRepositoryPlugin = () =>
  (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => !findsOnPath("pulumi-resource-etl", dir))
    .join(path.delimiter);

function npmEnv(registry: NpmRegistry | undefined): Record<string, string> {
  if (registry === undefined) throw new Error("a TypeScript template needs the loopback registry of the release's tarballs");
  return { npm_config_registry: registry.url, npm_config_prefer_offline: "true", PATH: pathWithoutRepositoryPlugin() };
}

/**
 * `. venv/bin/activate`, as the Installation page says, in the environment `pulumi new` made: `venv/`
 * as Pulumi.yaml names it, or the project folder itself where the language host does not read the
 * option (pulumi-language-python v3.66.0).
 */
function activatePythonEnvironment(machine: UserMachine): void {
  const venv = [path.join(machine.dir, "venv"), machine.dir].find((dir) => existsSync(path.join(dir, "pyvenv.cfg")));
  if (venv === undefined) throw new Error(`pulumi new made no virtual environment in ${machine.dir}`);
  Object.assign(machine.env, { VIRTUAL_ENV: venv, PATH: `${path.join(venv, "bin")}${path.delimiter}${machine.env.PATH}` });
}

const TEMPLATES: Record<Template, TemplateUser> = {
  "etl-typescript": { plugin: true, node: true, env: npmEnv, manifest: { file: "package.json", names: `"@pulumi-etl/sdk": "^${VERSION}"` } },
  "etl-typescript-dynamic": { plugin: false, node: true, env: npmEnv, manifest: { file: "package.json", names: `"pulumi-etl": "^${VERSION}"` } },
  "etl-python": {
    plugin: true,
    node: false,
    env: () => ({ ...RELEASE_PIP_ENV, PIP_FIND_LINKS: RELEASE_DIR }),
    afterNew: activatePythonEnvironment,
    manifest: { file: "requirements.txt", names: `pulumi_etl==${VERSION}` },
  },
  "etl-go": { plugin: true, node: false, env: goReleaseEnv, manifest: { file: "go.mod", names: `github.com/pulumi-etl/pulumi-etl/sdk/go v${VERSION}` } },
  "etl-yaml": { plugin: true, node: false, env: () => ({}) },
};

/** What the program exports: the connection's id and the pipeline's children's. */
interface Ids {
  warehouseId: string;
  packageId: string;
  scheduleId: string;
  alertHookId: string;
}

/** The stack's state as `pulumi stack export` prints it, and the ids among its outputs. */
async function exportedStack(machine: UserMachine): Promise<{ state: string; ids: Ids }> {
  const state = (await machine.pulumi(["stack", "export"])).output;
  const resources = (JSON.parse(state) as { deployment: { resources: Array<{ type: string; outputs?: Record<string, unknown> }> } }).deployment.resources;
  const outputs = resources.find((resource) => resource.type === "pulumi:pulumi:Stack")?.outputs ?? {};
  const ids = { warehouseId: outputs.warehouseId, packageId: outputs.packageId, scheduleId: outputs.scheduleId, alertHookId: outputs.alertHookId };
  for (const [name, id] of Object.entries(ids)) if (!/^\d+$/.test(String(id))) throw new Error(`the stack's output ${name} is ${JSON.stringify(id)}`);
  return { state, ids: Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, String(id)])) as unknown as Ids };
}

/** The templates' tarball unpacked beside the project folder; returns the template's folder. */
function unpackTemplate(machine: UserMachine, template: Template): string {
  const root = path.dirname(machine.dir);
  execFileSync("tar", ["-xzf", releaseFile(`pulumi-etl-templates-v${VERSION}.tar.gz`), "-C", root]);
  return path.join(root, "templates", template);
}

/** What the templates of one test file share: set by that file's `beforeAll`, read when each template's starts. */
export interface TemplatesContext {
  /** The loopback registry of the release's npm tarballs (for the TypeScript templates). */
  registry?: NpmRegistry;
  /** A Pulumi home with the plugin installed from its archive, which the plugin's templates share as one user's projects do. */
  pluginHome?: string;
}

/** A machine whose Pulumi home has the plugin installed from the release's archive; disposing of it removes that home. */
export async function pluginInstalledHome(): Promise<UserMachine> {
  const owner = newUserMachine("plugin-home", { withoutNode: true });
  await installPluginFromArchive(owner);
  return owner;
}

/** The template's `pulumi new` → up → unchanged preview → destroy, each against an emulator of its own. */
export function describeReleaseTemplate(template: Template, context: TemplatesContext): void {
  const user = TEMPLATES[template];
  describe(`the release's template ${template}`, () => {
    const password = `${template}-SECRET-${process.pid}`;
    let service: Emulator;
    let machine: UserMachine;

    beforeAll(async () => {
      service = await startTestEmulator();
      const home = user.plugin ? context.pluginHome : undefined;
      if (user.plugin && home === undefined) throw new Error(`the template ${template} needs the Pulumi home with the plugin installed`);
      machine = newUserMachine(template, { withoutNode: !user.node, env: { ...user.env(context.registry), ...(home ? { PULUMI_HOME: home } : {}) } });
    }, TIMEOUT_MS);

    afterAll(async () => {
      machine?.dispose();
      await service?.emulator.close();
    });

    it("pulumi new makes a project that up creates, an unchanged preview leaves alone and destroy removes", { timeout: TIMEOUT_MS }, async () => {
      const project = `etl-${template}-project`;
      const config = ["--config", `etl:apiUrl=${service.url}`, "--config", `etl:accountId=${service.accountId}`];
      await machine.pulumi(["new", unpackTemplate(machine, template), "--yes", "--name", project, "--stack", "dev", ...config]);
      await machine.pulumi(["config", "set", "--secret", "etl:apiKey", service.apiKey]);
      await machine.pulumi(["config", "set", "--secret", "warehousePassword", password]);
      user.afterNew?.(machine);

      const projectFile = readFileSync(path.join(machine.dir, "Pulumi.yaml"), "utf8");
      expect(projectFile).toMatch(new RegExp(`^name: ${project}$`, "m"));
      expect(projectFile).not.toMatch(/\$\{PROJECT\}|^template:/m);
      if (user.manifest) expect(readFileSync(path.join(machine.dir, user.manifest.file), "utf8")).toContain(user.manifest.names);
      const stackConfig = readFileSync(path.join(machine.dir, "Pulumi.dev.yaml"), "utf8");
      expect(stackConfig).not.toContain(service.apiKey);
      expect(stackConfig).not.toContain(password);

      const { output: upOutput } = await machine.pulumi(["up", "--yes"]);
      expect(upOutput).not.toMatch(/using pulumi-resource-etl from \$PATH/);
      const { state, ids } = await exportedStack(machine);
      const connections = async () => (await service.state()).accounts[0].connections as Array<{ id: number; name: string }>;
      expect((await connections()).map(({ id, name }) => ({ id: String(id), name }))).toEqual([{ id: ids.warehouseId, name: "warehouse" }]);
      const schedule = (await service.api("GET", `/schedules/${ids.scheduleId}`)).body;
      expect(schedule).toMatchObject({
        name: "daily rollup",
        interval_amount: 1,
        interval_unit: "days",
        task: { nodes: 2, packages: [{ package_id: ids.packageId }] },
      });
      expect((await service.api("GET", `/hooks/${ids.alertHookId}`)).body).toMatchObject({
        type: "web",
        events: ["job.failed"],
        name: "daily rollup failures",
      });
      expect((await service.api("GET", `/packages/${ids.packageId}`)).body).toMatchObject({ name: "daily rollup", status: "active" });
      expect(state).not.toContain(password);
      if (user.node) expect(context.registry?.served).toContain(template === "etl-typescript" ? "@pulumi-etl/sdk" : "pulumi-etl");

      await service.resetRequests();
      await machine.pulumi(["preview", "--expect-no-changes"]);
      expect(await service.writeRequests()).toEqual([]);

      await machine.pulumi(["destroy", "--yes"]);
      expect(await connections()).toEqual([]);
      expect((await service.api("GET", `/schedules/${ids.scheduleId}`)).status).toBe(404);
      expect((await service.api("GET", `/hooks/${ids.alertHookId}`)).status).toBe(404);
      expect((await service.api("GET", `/packages/${ids.packageId}`)).body).toMatchObject({ status: "archived" });
    });
  });
}
