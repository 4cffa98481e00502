/**
 * `etl-export` as a user meets it: the dynamic surface's program, whose `importId`s adopt every
 * object on the first `up` (then an empty preview); filters; a dry run; and bad input, answered
 * with one line naming the flag and the rule, before any call, with the key never printed.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newWorkDir, TEST_PASSPHRASE, testWorkspace } from "../support/engine";
import { linkedPluginDir } from "../support/language-project";
import { exportedSettings, printedSteps, runInFreshShell, type ExportedSetting } from "../support/export-steps";
import { writeProjectWithInstalledPackage } from "../support/installed-package.mts";
import { largeAccount, type LargeAccount } from "../support/large-account";
import { startTestEmulator, type Emulator } from "../support/service";
import { filesUnder } from "../support/soak";

const run = promisify(execFile);
const CLI = path.resolve(__dirname, "..", "..", "dist", "provider", "export", "cli.js");
const PASSWORD = "dynamic-SECRET-pw";

async function exportWith(service: Emulator, args: string[], env: Record<string, string> = {}) {
  const base = { ...process.env, ETL_API_KEY: service.apiKey, ETL_API_URL: service.url, ETL_ACCOUNT_ID: service.accountId, ...env };
  return run(process.execPath, [CLI, ...args], { env: base, maxBuffer: 16 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

/**
 * A package made from the "Daily rollup" template, as `Package`'s `templateId` makes one: the
 * service keeps no trace of the template, so the export writes its flow.
 */
async function packageFromTemplate(service: Emulator, account: LargeAccount): Promise<void> {
  const made = await service.api("POST", "/packages", { name: "Daily totals", package_template_id: 2 });
  const flow = (await service.api("GET", `/packages/${made.body.id}/export`)).body.data_flow_json;
  const database = account.account?.connections?.find((c) => c.type === "postgres");
  if (database === undefined) throw new Error("the large account has no postgres connection");
  const components = flow.components.map((c: { type: string }) => (/source|destination/.test(c.type) ? { ...c, connection: { id: database.id } } : c));
  expect((await service.api("PUT", `/packages/${made.body.id}`, { data_flow_json: { ...flow, components } })).status).toBe(200);
}

/** What a user sets: a key's line from its `.pub` file; for a secret, any value of the right form. */
function valueFor(account: LargeAccount, setting: ExportedSetting): string {
  if (setting.kind === "PublicKey") return account.keyLines[setting.id]!;
  return setting.what.endsWith("Url") ? "https://hooks.example.com/x" : `${PASSWORD}-${setting.id}`;
}

/** The engine, the YAML and Python hosts, the plugin and the Node.js it runs on, and the system's tools (bash, python3). */
function userPath(workDir: string): string[] {
  const engine = process.env.PULUMI_ETL_ENGINE_ROOT ?? "";
  const languages = process.env.PULUMI_ETL_LANGUAGES_ROOT ?? "";
  return [path.join(engine, "bin"), path.join(languages, "bin"), linkedPluginDir(workDir), path.dirname(process.execPath), "/usr/bin", "/bin"];
}

describe("etl-export", { timeout: 600_000 }, () => {
  let service: Emulator;
  let account: LargeAccount;

  beforeAll(async () => {
    account = largeAccount(5);
    service = await startTestEmulator(account);
    await packageFromTemplate(service, account);
  });

  afterAll(async () => {
    await service?.emulator.close();
  });

  const settingValue = (setting: ExportedSetting) => valueFor(account, setting);

  it("writes a dynamic-surface program whose first up adopts every object, creating none, and previews empty after", async () => {
    const { workDir, backend } = newWorkDir("export-dynamic");
    const dir = path.join(workDir, "project");
    const exported = await exportWith(service, ["--language", "typescript", "--surface", "dynamic", "--out", dir]);
    expect(exported.code).toBe(0);
    expect(existsSync(path.join(dir, "import.json"))).toBe(false);
    expect(readFileSync(path.join(dir, "index.ts"), "utf8")).toContain('import * as etl from "pulumi-etl";');
    // Package 5003 has no flow: written without dataFlow and without a file, it is adopted and previews empty too.
    const flows = filesUnder(path.join(dir, "flows"));
    expect(flows).toHaveLength(5);
    // The package made from a template is written with its flow: the template's filter and table.
    expect(flows.map((file) => readFileSync(file, "utf8")).filter((text) => text.includes("daily_totals") && text.includes("${day}"))).toHaveLength(1);
    expect(readFileSync(path.join(dir, "index.ts"), "utf8")).not.toContain("templateId");
    writeProjectWithInstalledPackage(dir, {});
    const settings = exportedSettings(exported.stdout);
    const stack = await LocalWorkspace.createStack({ stackName: "test", workDir: dir }, await testWorkspace(backend));
    await stack.setAllConfig({
      "etl:apiUrl": { value: service.url },
      "etl:accountId": { value: service.accountId },
      "etl:apiKey": { value: service.apiKey, secret: true },
      ...Object.fromEntries(settings.map((setting) => [setting.name, { value: settingValue(setting), secret: setting.secret }])),
    });
    const before = await service.state();
    await service.resetRequests();
    const up = await stack.up();
    // 42 objects (6 members: every user but the owner), the API key's user's watches of 3 clusters a
    // colleague made, its settings and the stack. The owner's watches of the clusters they made (the
    // deliveries') come with the clusters, not exported.
    expect(up.summary.resourceChanges).toEqual({ create: 47 });
    // Adoption makes nothing. It sends what the service cannot show (connections' secrets, hooks'
    // settings) and validates each package, as `up` does after any change of one.
    const writes = await service.writeRequests();
    const kindOf = (request: { path: string }) => request.path.split("/")[3];
    expect(writes.filter((request) => request.method !== "PUT" && !request.path.endsWith("/validate"))).toEqual([]);
    expect(new Set(writes.filter((request) => request.method === "PUT").map(kindOf))).toEqual(new Set(["connections", "hooks"]));
    const after = await service.state();
    for (const table of ["publicKeys", "connections", "connectionGroups", "schedules", "hooks", "deliveries", "packages"]) {
      expect(after.accounts[0][table].length, table).toBe(before.accounts[0][table].length);
    }
    await stack.preview({ expectNoChanges: true });
    for (const file of filesUnder(backend)) {
      const text = readFileSync(file, "latin1");
      expect(text.includes(PASSWORD) || text.includes(service.apiKey), file).toBe(false);
    }
  });

  it("the steps it prints, pasted as they are into bash, import a YAML export and preview empty; a Python export into a second folder stack-inits prod beside it and stores its settings", async () => {
    const { workDir, backend } = newWorkDir("export-steps");
    const [yamlDir, pythonDir] = [path.join(workDir, "acme-yaml"), path.join(workDir, "acme-python")];
    // The address and the account from the command line only: the steps must carry them.
    const noSettings = { ETL_API_URL: "", ETL_ACCOUNT_ID: "" };
    const connect = ["--api-url", service.url, "--account-id", service.accountId];
    const yaml = await exportWith(service, ["--language", "yaml", "--out", yamlDir, ...connect], noSettings);
    const python = await exportWith(service, ["--language", "python", "--out", pythonDir, ...connect], noSettings);
    expect(yaml.code, yaml.stderr).toBe(0);
    expect(python.code, python.stderr).toBe(0);
    const objects = Number(/^exported (\d+) objects/m.exec(yaml.stdout)![1]);
    const settings = exportedSettings(yaml.stdout);
    expect(settings.length).toBeGreaterThan(0);
    expect(readFileSync(path.join(yamlDir, "Pulumi.prod.yaml"), "utf8")).toBe(
      `config:\n  etl:apiUrl: "${service.url}"\n  etl:accountId: "${service.accountId}"\n`,
    );
    const shell = {
      path: userPath(workDir),
      env: {
        PULUMI_BACKEND_URL: `file://${backend}`,
        PULUMI_CONFIG_PASSPHRASE: TEST_PASSPHRASE,
        ETL_API_KEY: service.apiKey,
        ...Object.fromEntries(settings.map((setting) => [setting.variable, settingValue(setting)])),
      },
    };
    await service.resetRequests();
    const steps = printedSteps(yaml.stdout);
    expect(steps[0]).toBe(`  cd '${yamlDir}'`);
    expect(steps.slice(1).map((line) => line.trim().split(" ").slice(0, 2).join(" "))).toEqual([
      "pulumi stack",
      ...Array(settings.length + 1).fill("pulumi config"),
      "pulumi import",
      "pulumi preview",
    ]);
    const pasted = await runInFreshShell(steps, { ...shell, scratch: path.join(workDir, "yaml-shell") });
    expect(pasted.code, pasted.output).toBe(0);
    expect(pasted.output).toMatch(new RegExp(`= ${objects} imported\n`));
    const preview = pasted.output.slice(pasted.output.lastIndexOf("Previewing update (prod)"));
    expect(preview).toMatch(new RegExp(`Resources:\n +${objects + 1} unchanged\n`));
    expect(preview).not.toMatch(/to (create|update|replace|delete)|error:/);
    expect(await service.writeRequests()).toEqual([]);
    for (const file of [...filesUnder(backend), ...filesUnder(yamlDir)]) expect(readFileSync(file, "latin1"), file).not.toContain(service.apiKey);
    expect(yaml.stdout + pasted.output).not.toContain(service.apiKey);

    // The Python project's steps but the install, the import and the preview: its import is the same
    // line on the same kind of file (test/unit/export-project-files.test.ts), which
    // test/languages/account-export.test.ts runs on a Python project installed from the release.
    const pythonSteps = printedSteps(python.stdout).filter((line) => !/pip install|pulumi import|pulumi preview/.test(line));
    expect(pythonSteps[0]).toBe(`  cd '${pythonDir}'`);
    const second = await runInFreshShell(pythonSteps, { ...shell, scratch: path.join(workDir, "python-shell") });
    expect(second.code, second.output).toBe(0);
    const stacks = await runInFreshShell(["pulumi stack ls --all"], { ...shell, scratch: path.join(workDir, "list-shell") });
    // The YAML stack holds the objects, the stack itself and the default provider; the Python one, with nothing imported, none.
    expect(stacks.output).toMatch(new RegExp(`^organization/acme-yaml/prod .* ${objects + 2}\\s*$`, "m"));
    expect(stacks.output).toMatch(/^organization\/acme-python\/prod .* 0\s*$/m);
  });

  it("keeps to the kinds and names asked for, and a dry run writes nothing", async () => {
    const { workDir } = newWorkDir("export-filters");
    const dir = path.join(workDir, "out");
    const dry = await exportWith(service, [
      "--language",
      "python",
      "--out",
      dir,
      "--dry-run",
      "--only",
      "schedules,connection-groups",
      "--name-prefix",
      "nightly",
    ]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/dry run: nothing written/);
    expect(dry.stdout).toMatch(/exported 5 objects: 5 Schedule\n/);
    expect(existsSync(dir)).toBe(false);
    const real = await exportWith(service, ["--language", "python", "--out", dir, "--only", "Schedule"]);
    expect(real.code).toBe(0);
    const program = readFileSync(path.join(dir, "__main__.py"), "utf8");
    expect(program.match(/etl\.Schedule\(/g)).toHaveLength(5);
    // A package outside the export stays an id.
    expect(program).toMatch(/"packageId": 5000/);
    expect(dry.stderr).toMatch(/Schedule: 5 listed/);
  });

  it.each([
    [["--language", "rust", "--out", "x"], /--language must be one of typescript, python, go, yaml, got "rust"/],
    [["--language", "go"], /--out is required/],
    [["--language", "go", "--out", "x", "--api-key", "k"], /--api-key is not taken: .* set ETL_API_KEY/],
    [
      ["--language", "go", "--out", "x", "--only", "clusters"],
      /--only: "clusters" is not a kind that can be exported \(Cluster objects are runtime objects.*the kinds are .*\bdeliveries\b/,
    ],
    [["--language", "python", "--surface", "dynamic", "--out", "x"], /--surface dynamic is for TypeScript programs only/],
    [["--language", "go", "--out", "x", "--colour"], /Unknown option '--colour'/],
    [
      ["--language", "yaml", "--out", "x", "--new-stack", "team/prod"],
      /--new-stack must be letters, digits, "_", "\." or "-" \(a Pulumi stack name\), got "team\/prod"/,
    ],
    [["--language", "yaml", "--out", "x", "--project", "my project"], /--project must be .*got "my project"/],
  ])("refuses %j with one line naming the rule", async (args, message) => {
    await service.resetRequests();
    const result = await exportWith(service, args as string[]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(await service.calls()).toEqual([]);
  });

  it("says which setting is missing, and never prints the key", async () => {
    const missing = await exportWith(service, ["--language", "go", "--out", "x"], { ETL_API_KEY: "" });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/etl:apiKey is not set \(set ETL_API_KEY\)/);
    const wrong = await exportWith(service, ["--language", "go", "--dry-run"], { ETL_API_KEY: "wrong-key-SECRET" });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/401|unauthori[sz]ed|API key/i);
    expect(wrong.stdout + wrong.stderr).not.toContain("wrong-key-SECRET");
    const fine = await exportWith(service, ["--language", "go", "--dry-run"]);
    expect(fine.stdout + fine.stderr).not.toContain(service.apiKey);
  });
});
