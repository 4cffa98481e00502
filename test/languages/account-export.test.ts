/**
 * Bringing an existing account under code: `etl-export` reads an account of 100 objects of every
 * set-up kind, writes a project in each language and an import file; the project installs its
 * packages from the release folder alone, by the names and versions it gives; `pulumi import --file`
 * brings every object into a new stack, and the preview after it is empty. Neither the export
 * nor the import writes to the service, imported resources are protected, secrets given in the
 * configuration stay encrypted, and a second export of the unchanged account writes the same bytes.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newWorkDir } from "../support/engine";
import { exportedSettings, type ExportedSetting } from "../support/export-steps";
import { largeAccount, type LargeAccount } from "../support/large-account";
import { LANGUAGES, type Language } from "../support/language-project";
import { newUserMachine } from "../support/release";
import { exportableKinds } from "../../provider/export/read";
import { createExportedReleaseStack } from "../support/release-project";
import { startLocalService, type LocalService } from "../support/service";
import { filesUnder } from "../support/soak";

const run = promisify(execFile);
const CLI = path.resolve(__dirname, "..", "..", "dist", "provider", "export", "cli.js");
const PER_KIND = 100;
const SET_UP_KINDS = exportableKinds().kinds;
const SECRET_VALUE = "exported-SECRET-value";

interface Exported {
  stdout: string;
  stderr: string;
  /** Each value the program reads from configuration, by name, with the id of the object it belongs to. */
  settings: ExportedSetting[];
}

async function exportAccount(service: LocalService, args: string[]): Promise<Exported> {
  const env = { ...process.env, ETL_API_KEY: service.apiKey, ETL_API_URL: "", ETL_ACCOUNT_ID: "" };
  const { stdout, stderr } = await run(process.execPath, [CLI, ...args, "--api-url", service.url, "--account-id", service.accountId], {
    env,
    maxBuffer: 16 * 1024 * 1024,
  });
  return { stdout, stderr, settings: exportedSettings(stdout) };
}

/** What a user would set: a key's line from its `.pub` file; for a secret, any value of the right form. */
function valueFor(setting: Exported["settings"][number]): { value: string; secret?: boolean } {
  if (setting.kind === "PublicKey") return { value: account.keyLines[setting.id]! };
  const value = setting.what.endsWith("Url") ? `https://hooks.example.com/${SECRET_VALUE}` : `${SECRET_VALUE}-${setting.id}`;
  return { value, secret: true };
}

let account: LargeAccount;

describe("an account exported and imported", { timeout: 900_000 }, () => {
  let service: LocalService;

  beforeAll(async () => {
    account = largeAccount(PER_KIND);
    service = await startLocalService(account);
  });

  afterAll(async () => {
    await service?.emulator.close();
  });

  it.each(LANGUAGES)("in %s: every object imported, the next preview empty, nothing written to the service", async (language: Language) => {
    // The project installs only from the release, as the README's etl-export section says.
    const machine = newUserMachine(`export-${language}`, { withoutNode: language !== "typescript" });
    const dir = machine.dir;
    await service.resetRequests();
    const started = Date.now();
    const exported = await exportAccount(service, ["--language", language, "--out", dir]);
    // 100 of each of the eight kinds an account holds, less the owner, the API key's user's settings
    // and its watches of 3 clusters.
    expect(exported.stdout).toMatch(/exported 805 objects/);
    expect(exported.stdout).toMatch(/left out: 1 Member: the account's owner/);
    expect(exported.stdout).toMatch(/left out: 100 Package: made by the service for a Delivery/);
    // Two packages have no flow (see largeAccount): no file for either.
    expect(filesUnder(path.join(dir, "flows"))).toHaveLength(PER_KIND - 2);
    const config = Object.fromEntries(exported.settings.map((setting) => [setting.name, valueFor(setting)]));
    console.log(`${language}: exported in ${Date.now() - started} ms`);
    const test = await createExportedReleaseStack(language, machine, service, config);
    try {
      // The file as written, as the README's command reads it.
      const args = ["import", "--file", "import.json", "--yes", "--skip-preview", "--generate-code=false", "--non-interactive", "--stack", "test"];
      await run(test.stack.workspace.pulumiCommand.command, args, {
        cwd: dir,
        env: { ...process.env, ...test.stack.workspace.envVars, PULUMI_SKIP_CHECKPOINTS: "true" },
        maxBuffer: 64 * 1024 * 1024,
      });
      console.log(`${language}: imported at ${Date.now() - started} ms`);
      const resources = ((await test.stack.exportStack()).deployment.resources ?? []).filter((r: any) => r.type.startsWith("etl:index:"));
      expect(resources).toHaveLength(805);
      expect(new Set(resources.map((r: any) => r.type.slice("etl:index:".length)))).toEqual(new Set(SET_UP_KINDS));
      expect(resources.every((r: any) => r.protect === true)).toBe(true);

      const preview = await test.stack.preview({ expectNoChanges: true, diff: true });
      console.log(`${language}: previewed at ${Date.now() - started} ms`);
      expect(preview.changeSummary).toEqual({ same: 806 });
      expect(await service.writeRequests()).toEqual([]);
      // The state, and the project with its stack settings; not the packages it installed.
      const written = [...filesUnder(path.join(test.workDir, "backend")), ...filesUnder(dir).filter((name) => !/[/](node_modules|venv)[/]/.test(name))];
      for (const file of written) expect(readFileSync(file, "latin1")).not.toContain(SECRET_VALUE);
    } finally {
      test.dispose();
    }
  });

  it("a second export of the unchanged account writes the same bytes", async () => {
    const { workDir } = newWorkDir("export-again");
    // Two folders of one name: the project is named after its folder.
    const [first, second] = [path.join(workDir, "first", "acme"), path.join(workDir, "second", "acme")];
    await exportAccount(service, ["--language", "go", "--out", first]);
    const again = await exportAccount(service, ["--language", "go", "--out", second]);
    const files = (dir: string) => Object.fromEntries(filesUnder(dir).map((file) => [path.relative(dir, file), readFileSync(file, "utf8")]));
    expect(Object.keys(files(first)).length).toBeGreaterThan(100);
    expect(files(second)).toEqual(files(first));
    expect(again.stdout).toMatch(/read in [\d.]+ s with \d+ API calls/);
  });
});
