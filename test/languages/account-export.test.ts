/**
 * Bringing an existing account under code: `etl-export` reads an account of 51 objects of every
 * set-up kind (a few names repeated within a kind; the packages two pages of the listing, with
 * the ones the service made for the deliveries) and writes a project in each language and an
 * import file. The Python project,
 * installed from the release folder alone, is the one taken through the engine: `pulumi import
 * --file` brings every object into a new stack, protected, the preview after it is empty, nothing
 * is written to the service and the secrets given stay encrypted. Each other language's program is
 * held to it without the engine: the YAML program declares the resources and inputs the Python
 * program does, run with Pulumi's mocks in the engine's place (the YAML host's own reading of an
 * export is test/engine/account-export.test.ts's); the TypeScript program type-checks against the
 * SDK; the Go program's go.mod resolves from the release and the program builds (`go vet`). A
 * second export of the unchanged account writes the same bytes.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SDK_NAMES } from "pulumi-etl/plugin";
import { newWorkDir } from "../support/engine";
import { goProgramEnv } from "../support/go-flags.mts";
import { exportedSettings, type ExportedSetting } from "../support/export-steps";
import { declaredByYaml, type Declared } from "../support/export-programs";
import { largeAccount, WATCHED_CLUSTERS, type LargeAccount } from "../support/large-account";
import { LANGUAGES, type Language } from "../support/language-project";
import { goReleaseEnv, newUserMachine, type UserMachine } from "../support/release";
import { exportableKinds } from "../../provider/export/read";
import { createExportedReleaseStack } from "../support/release-project";
import { startTestEmulator, type Emulator } from "../support/service";
import { filesUnder } from "../support/soak";

const run = promisify(execFile);
const REPO_ROOT = path.resolve(__dirname, "..", "..");
const CLI = path.join(REPO_ROOT, "dist", "provider", "export", "cli.js");
const FAKE_ENGINE = path.join(REPO_ROOT, "test", "support", "run-with-fake-engine.py");
/**
 * Enough for every shape the large account has: two connections named "warehouse" and two keys
 * named "laptop" (the 5th and 35th, the 8th and 33rd), a package still without a flow (the 4th),
 * every connection and hook type, and 102 packages, two pages of their listing.
 */
const PER_KIND = 51;
/**
 * PER_KIND of each of the eight kinds an account holds (the owner left out of the members), and the
 * API key's user: a member too, its settings and its watches of the clusters.
 */
const EXPORTED = PER_KIND * 8 + 2 + WATCHED_CLUSTERS;
const SET_UP_KINDS = exportableKinds().kinds;
const SECRET_VALUE = "exported-SECRET-value";

interface Exported {
  dir: string;
  stdout: string;
  /** Each value the program reads from configuration, by name, with the id of the object it belongs to. */
  settings: ExportedSetting[];
}

async function exportAccount(service: Emulator, args: string[]): Promise<Omit<Exported, "dir">> {
  const env = { ...process.env, ETL_API_KEY: service.apiKey, ETL_API_URL: "", ETL_ACCOUNT_ID: "" };
  const { stdout } = await run(process.execPath, [CLI, ...args, "--api-url", service.url, "--account-id", service.accountId], {
    env,
    maxBuffer: 16 * 1024 * 1024,
  });
  return { stdout, settings: exportedSettings(stdout) };
}

/** What a user would set: a key's line from its `.pub` file; for a secret, any value of the right form. */
function valueFor(setting: ExportedSetting): { value: string; secret?: boolean } {
  if (setting.kind === "PublicKey") return { value: account.keyLines[setting.id]! };
  const value = setting.what.endsWith("Url") ? `https://hooks.example.com/${SECRET_VALUE}` : `${SECRET_VALUE}-${setting.id}`;
  return { value, secret: true };
}

const configOf = (settings: ExportedSetting[]) => Object.fromEntries(settings.map((setting) => [setting.name, valueFor(setting)]));
const projectOf = (dir: string) => /^name: (\S+)$/m.exec(readFileSync(path.join(dir, "Pulumi.yaml"), "utf8"))![1]!;
const byTypeAndName = (a: Declared, b: Declared) => `${a.type}/${a.name}`.localeCompare(`${b.type}/${b.name}`);

let account: LargeAccount;

describe(`an account of ${PER_KIND} objects of each set-up kind, exported`, { timeout: 900_000 }, () => {
  let service: Emulator;
  const machines: UserMachine[] = [];
  const exported = {} as Record<Language, Exported>;

  /** The project folder: a user's machine's for the languages installed from the release, the repository's work folder for TypeScript's SDK. */
  function folderFor(language: Language): { dir: string; machine?: UserMachine } {
    if (language === "typescript") return { dir: path.join(newWorkDir("export-typescript").workDir, "acme") };
    const machine = newUserMachine(`export-${language}`, { withoutNode: true, env: language === "go" ? goReleaseEnv() : {} });
    machines.push(machine);
    return { dir: machine.dir, machine };
  }
  const machineOf = (language: Language) => machines.find((machine) => machine.dir === exported[language].dir)!;

  beforeAll(async () => {
    account = largeAccount(PER_KIND);
    service = await startTestEmulator(account);
    await service.resetRequests();
    for (const language of LANGUAGES) {
      const { dir } = folderFor(language);
      exported[language] = { dir, ...(await exportAccount(service, ["--language", language, "--out", dir])) };
    }
  });

  afterAll(async () => {
    for (const machine of machines) machine.dispose();
    await service?.emulator.close();
  });

  it.each(LANGUAGES)(
    `in %s: reports ${EXPORTED} objects and what it left out, writes a flow for each package that has one, and writes nothing to the service`,
    async (language) => {
      const { stdout, dir } = exported[language];
      expect(stdout).toMatch(new RegExp(`exported ${EXPORTED} objects`));
      expect(stdout).toMatch(/left out: 1 Member: the account's owner/);
      expect(stdout).toMatch(new RegExp(`left out: ${PER_KIND} Package: made by the service for a Delivery`));
      // One package has no flow (see largeAccount): no file for it.
      expect(filesUnder(path.join(dir, "flows"))).toHaveLength(PER_KIND - 1);
      expect(await service.writeRequests()).toEqual([]);
    },
  );

  it("in Python, installed from the release: every object imported, protected, the next preview empty, nothing written to the service, the secrets encrypted", async () => {
    const { dir, settings } = exported.python;
    // Its requirements installed with pip into a virtual environment; disposed of with the other machines.
    const test = await createExportedReleaseStack("python", machineOf("python"), service, configOf(settings));
    await service.resetRequests();
    // The file as written, as the README's command reads it.
    const args = ["import", "--file", "import.json", "--yes", "--skip-preview", "--generate-code=false", "--non-interactive", "--stack", "test"];
    await run(test.stack.workspace.pulumiCommand.command, args, {
      cwd: dir,
      env: { ...process.env, ...test.stack.workspace.envVars, PULUMI_SKIP_CHECKPOINTS: "true" },
      maxBuffer: 64 * 1024 * 1024,
    });
    const resources = ((await test.stack.exportStack()).deployment.resources ?? []).filter((r: any) => r.type.startsWith("etl:index:"));
    expect(resources).toHaveLength(EXPORTED);
    expect(new Set(resources.map((r: any) => r.type.slice("etl:index:".length)))).toEqual(new Set(SET_UP_KINDS));
    expect(resources.every((r: any) => r.protect === true)).toBe(true);

    const preview = await test.stack.preview({ expectNoChanges: true, diff: true });
    expect(preview.changeSummary).toEqual({ same: EXPORTED + 1 });
    expect(await service.writeRequests()).toEqual([]);
    // The state, and the project with its stack settings; not the packages it installed.
    const written = [...filesUnder(path.join(test.workDir, "backend")), ...filesUnder(dir).filter((name) => !/[/]venv[/]/.test(name))];
    for (const file of written) expect(readFileSync(file, "latin1"), file).not.toContain(SECRET_VALUE);
  });

  it("in YAML: the program declares the resources of the Python program, run with Pulumi's mocks for the engine, protected, with the same inputs", async () => {
    const python = exported.python;
    // The virtual environment the Python project's requirements were installed into, above.
    const interpreter = path.join(python.dir, "venv", "bin", "python");
    expect(existsSync(interpreter), "the Python project's packages are installed").toBe(true);
    const project = projectOf(python.dir);
    const config = Object.fromEntries(python.settings.map((setting) => [`${project}:${setting.name}`, valueFor(setting).value]));
    const { stdout } = await run(interpreter, [FAKE_ENGINE, python.dir, project], {
      env: { ...machineOf("python").env, PULUMI_CONFIG: JSON.stringify(config) },
      maxBuffer: 64 * 1024 * 1024,
    });
    const declared = (JSON.parse(stdout) as Declared[]).sort(byTypeAndName);
    expect(declared).toHaveLength(EXPORTED);
    // Not empty by accident: references, settings and flows are in the inputs, resolved.
    const text = JSON.stringify(declared.map((resource) => resource.inputs));
    for (const resolved of ['"etl:index:Connection/', SECRET_VALUE]) expect(text).toContain(resolved);
    const flow = readFileSync(filesUnder(path.join(python.dir, "flows"))[0]!, "utf8");
    expect(declared.some((resource) => Object.values(resource.inputs).includes(flow))).toBe(true);
    const yaml = exported.yaml;
    // Read by PyYAML, which the Python project's pulumi package installed; the program quotes every word YAML 1.1 reads as another type.
    const toJson = "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1], encoding='utf-8')), sys.stdout)";
    const program = await run(interpreter, ["-c", toJson, path.join(yaml.dir, "Pulumi.yaml")], { maxBuffer: 64 * 1024 * 1024 });
    const fromYaml = declaredByYaml(JSON.parse(program.stdout), {
      config: Object.fromEntries(yaml.settings.map((setting) => [setting.name, valueFor(setting).value])),
      readFile: (file) => readFileSync(path.join(yaml.dir, file), "utf8"),
    }).sort(byTypeAndName);
    expect(fromYaml).toEqual(declared);
  });

  it("in TypeScript: the program type-checks against the SDK", async () => {
    const { dir } = exported.typescript;
    // The SDK, compiled, where npm installs it; @pulumi/pulumi and Node.js's types from the repository's node_modules.
    const installed = path.join(dir, "node_modules", ...SDK_NAMES.nodejs.split("/"));
    mkdirSync(path.dirname(installed), { recursive: true });
    symlinkSync(path.join(REPO_ROOT, "sdk", "nodejs", "bin"), installed);
    const tsc = path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
    const flags = ["--noEmit", "--strict", "--skipLibCheck", "--target", "es2022", "--module", "commonjs", "--types", "node"];
    const checked = await run(process.execPath, [tsc, ...flags, "index.ts"], { cwd: dir }).then(
      () => "",
      (error: { stdout: string }) => error.stdout,
    );
    expect(checked).toBe("");
    expect(readFileSync(path.join(dir, "index.ts"), "utf8").match(/= new etl\.\w+\(/g)).toHaveLength(EXPORTED);
  });

  it("in Go: go.mod resolves from the release and the program builds", () => {
    const machine = machineOf("go");
    machine.exec("go", ["mod", "tidy"], goProgramEnv("mod"));
    expect(machine.exec("go", ["vet", "."])).toBe("");
    expect(readFileSync(path.join(exported.go.dir, "main.go"), "utf8").match(/etl\.New\w+\(ctx, /g)).toHaveLength(EXPORTED);
  });

  it("a second export of the unchanged account writes the same bytes", async () => {
    const { workDir } = newWorkDir("export-again");
    // Two folders of one name: the project is named after its folder.
    const [first, second] = [path.join(workDir, "first", "acme"), path.join(workDir, "second", "acme")];
    await exportAccount(service, ["--language", "go", "--out", first]);
    const again = await exportAccount(service, ["--language", "go", "--out", second]);
    const files = (dir: string) => Object.fromEntries(filesUnder(dir).map((file) => [path.relative(dir, file), readFileSync(file, "utf8")]));
    // A flow for each package that has one, and the program.
    expect(Object.keys(files(first)).length).toBeGreaterThan(PER_KIND - 1);
    expect(files(second)).toEqual(files(first));
    expect(again.stdout).toMatch(/read in [\d.]+ s with \d+ API calls/);
  });
});
