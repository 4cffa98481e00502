/**
 * The npm package from the release's tarball, installed with npm in a folder outside the
 * repository: a copy (no link to the repository), whose commands run through `npx` (the
 * emulator, and an export of its account into a project of each language), and whose dynamic
 * resources a JavaScript program uses against that service.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ed25519PublicKeyLine } from "./keys";
import { configureStack, releaseFile, VERSION, type UserMachine } from "./release";
import { firstLines } from "./release-tools";

/** A GET of the emulator's API as its default user: the status and the JSON. */
async function serviceGet(service: { url: string; account: string; apiKey: string }, path: string): Promise<{ status: number; body: any }> {
  const headers = { Accept: "application/vnd.service+json; version=2", Authorization: `Basic ${Buffer.from(`${service.apiKey}:`).toString("base64")}` };
  const response = await fetch(`${service.url}/${service.account}/api${path}`, { headers });
  return { status: response.status, body: await response.json() };
}

/** The keys of the emulator's default user, as its API lists them. */
async function serviceKeysOf(service: { url: string; account: string; apiKey: string }): Promise<Array<{ id: number }>> {
  return (await serviceGet(service, "/user/keys")).body as Array<{ id: number }>;
}

/** The machine's `pulumi` run as if started in `folder`. */
function inFolder(machine: UserMachine, folder: string): UserMachine {
  return { ...machine, pulumi: (args, options) => machine.pulumi(["--cwd", folder, ...args], options) };
}

/**
 * The pulumi-etl tarball's own tests, in a project that installed it with npm (`file:` the
 * tarball in its package.json, beside `@pulumi/pulumi`): `machineOf` gives that project once its
 * file's `beforeAll` has installed it.
 */
export function describeNpmPackageInstalled(machineOf: () => UserMachine): void {
  describe("the pulumi-etl npm tarball, installed as a user installs it", { timeout: 300_000 }, () => {
    let machine: UserMachine;
    let emulator: ChildProcess | undefined;
    let service: { url: string; account: string; apiKey: string };
    const serviceKeys = () => serviceKeysOf(service);

    beforeAll(() => {
      machine = machineOf();
    });

    /** `npx` runs the command as a child of its own: the whole group is stopped, not only `npx`. */
    const stopEmulator = () => {
      if (emulator?.pid === undefined || emulator.exitCode !== null) return;
      try {
        process.kill(-emulator.pid, "SIGTERM");
      } catch {
        // already gone
      }
    };

    afterAll(() => {
      stopEmulator();
    });

    it("is installed as a copy of its own version, not a link to the repository, with no record of the repository's build", () => {
      const installed = path.join(machine.dir, "node_modules", "pulumi-etl");
      expect(lstatSync(installed).isSymbolicLink()).toBe(false);
      expect(JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8")).version).toBe(VERSION);
      expect(existsSync(path.join(installed, "dist", "provider", "plugin", "bundle.js"))).toBe(true);
      expect(existsSync(path.join(installed, "dist", ".tsbuildinfo"))).toBe(false);
    });

    it("npx etl-emulator starts the emulator and prints its URL and credentials", async () => {
      emulator = spawn("npx", ["--no-install", "etl-emulator", "--port", "0"], {
        cwd: machine.dir,
        env: machine.env,
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      const [listening, account, apiKey] = await firstLines(emulator, 3);
      expect(listening).toMatch(/^etl-emulator listening on http:\/\/127\.0\.0\.1:\d+$/);
      service = {
        url: listening!.replace("etl-emulator listening on ", ""),
        account: account!.replace("account: ", ""),
        apiKey: apiKey!.replace("api key: ", ""),
      };
      expect((await fetch(`${service.url}/_emulator/health`)).status).toBe(200);
    });

    it.each(["typescript", "python", "go"])("npx etl-export writes the account as a %s project", (language) => {
      const out = path.join(machine.dir, `exported-${language}`);
      const env = { ETL_API_URL: service.url, ETL_ACCOUNT_ID: service.account, ETL_API_KEY: service.apiKey };
      machine.exec("npx", ["--no-install", "etl-export", "--language", language, "--out", out], env);
      expect(readFileSync(path.join(out, "Pulumi.yaml"), "utf8")).toMatch(/^runtime: /m);
      const manifest = { typescript: "package.json", python: "requirements.txt", go: "go.mod" }[language]!;
      expect(existsSync(path.join(out, manifest)), manifest).toBe(true);
      for (const file of ["Pulumi.yaml", manifest]) expect(readFileSync(path.join(out, file), "utf8")).not.toContain(service.apiKey);
    });

    it("a JavaScript program on its dynamic resources and a Pipeline runs up, an unchanged preview and destroy, its state holding only the line that loads the package", async () => {
      const key = ed25519PublicKeyLine("dynamic@example.com");
      // A folder of its own under the project, whose node_modules the program's require finds.
      const folder = path.join(machine.dir, "dynamic");
      mkdirSync(folder);
      const project = inFolder(machine, folder);
      writeFileSync(path.join(folder, "Pulumi.yaml"), "name: etl-dynamic\nruntime: nodejs\nmain: program.js\n");
      const pipeline = `new etl.Pipeline("rollup", { name: "rollup", schedule: { interval: { amount: 1, unit: "days" }, startAt: "2030-01-01T00:00:00Z" } })`;
      const program = `const etl = require("pulumi-etl");\nexports.keyId = new etl.PublicKey("deploy", { publicKey: ${JSON.stringify(key.line)} }).id;\nexports.scheduleId = ${pipeline}.scheduleId;\n`;
      writeFileSync(path.join(folder, "program.js"), program);
      await configureStack(project, "dev", { url: service.url, accountId: service.account, apiKey: service.apiKey });
      await project.pulumi(["up", "--yes"]);
      const { keyId, scheduleId } = JSON.parse((await project.pulumi(["stack", "output", "--json"])).output) as { keyId: string; scheduleId: string };
      expect((await serviceKeys()).map((row) => String(row.id))).toEqual([keyId]);
      expect((await serviceGet(service, `/schedules/${scheduleId}`)).body).toMatchObject({ name: "rollup", interval_unit: "days" });
      const state = JSON.parse((await project.pulumi(["stack", "export"])).output) as {
        deployment: { resources: Array<{ urn: string; type: string; parent?: string; inputs?: { __provider?: string } }> };
      };
      const component = state.deployment.resources.find((resource) => resource.type === "etl:index:Pipeline");
      const children = state.deployment.resources
        .filter((resource) => component !== undefined && resource.parent === component.urn)
        .map((resource) => resource.type);
      expect(children.sort()).toEqual(["pulumi-nodejs:dynamic/etl:Package", "pulumi-nodejs:dynamic/etl:Schedule"]);
      const provider = state.deployment.resources.find((resource) => resource.type === "pulumi-nodejs:dynamic/etl:PublicKey")?.inputs?.__provider ?? "";
      expect(provider).toContain('require("pulumi-etl/runtime")');
      expect(provider.length).toBeLessThan(1000);
      await project.pulumi(["preview", "--expect-no-changes"]);
      await project.pulumi(["destroy", "--yes"]);
      expect(await serviceKeys()).toEqual([]);
      expect((await serviceGet(service, `/schedules/${scheduleId}`)).status).toBe(404);
    });

    it("from an empty folder holding only the tarball, npx --package runs a command, as the README says for Node.js users", () => {
      const folder = mkdtempSync(path.join(machine.dir, "empty-"));
      const tarball = `pulumi-etl-${VERSION}.tgz`;
      copyFileSync(releaseFile(tarball), path.join(folder, tarball));
      // "$PWD/…": npm takes a relative tarball path from the nearest folder with a package.json, here the one above.
      const usage = execFileSync("npx", ["--yes", "--prefer-offline", "--package", path.join(folder, tarball), "etl-recover", "--help"], {
        cwd: folder,
        env: machine.env,
        encoding: "utf8",
      });
      expect(usage).toMatch(/^usage: etl-recover/m);
    });

    it("npx etl-recover answers --help with its usage", () => {
      expect(machine.exec("npx", ["--no-install", "etl-recover", "--help"])).toMatch(/^usage: etl-recover/m);
    });

    it("stopping npx etl-emulator stops the service it started: its address no longer answers", async () => {
      const exited = new Promise((resolve) => emulator!.once("exit", resolve));
      stopEmulator();
      await exited;
      await expect(fetch(`${service.url}/_emulator/health`, { signal: AbortSignal.timeout(5_000) })).rejects.toThrow();
    });
  });
}
