/**
 * `etl-coverage` as a platform team meets it: objects made in the interface (straight through the
 * API), a stack on the plugin with a Pipeline and an adopted connection, a stack on the dynamic
 * resources with an adopted connection and one of its own, a connection both stacks adopted, one
 * deleted out of band, 120 connections made before any stack (two pages of the listing). The
 * report's status of every object, its exit codes, an ignore file, reads only, the calls it
 * says it made; and `etl-export --unmanaged`, which writes only what no stack holds.
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import * as pulumi from "@pulumi/pulumi";
import { RESOURCE_EXAMPLES } from "pulumi-etl/plugin";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestStack, testEnv, type TestStack } from "../support/engine";
import { startTestEmulator, TEST_USER_ID, type Emulator } from "../support/service";
import { declare, declarePipeline } from "../support/surfaces";

const run = promisify(execFile);
const DIST = path.resolve(__dirname, "..", "..", "dist", "provider");
const ENGINE_BIN = path.join(process.env.PULUMI_ETL_ENGINE_ROOT ?? "", "bin");
const PASSWORD = "coverage-SECRET-pw";

const FLOW_CONNECTIONS = [
  { id: 301, name: "warehouse", type: "postgres", attributes: { username: "etl", password: "pw", host: "db.example.com", database: "analytics" } },
  { id: 302, name: "lake", type: "s3", attributes: { username: "AKIAEXAMPLE", password: "secret", region: "eu-west-1" } },
];
const BULK = Array.from({ length: 120 }, (_, i) => ({
  id: 3000 + i,
  name: `bulk ${i}`,
  type: "postgres",
  attributes: { username: "u", password: "p", host: `db${i}.example.com`, database: "d" },
}));

type Report = {
  accountId: string;
  summary: Record<string, number>;
  objects: Array<{ kind: string; id: string; name: string; status: string; stacks: string[]; urns: string[] }>;
};
type Ran = { code: number; stdout: string; stderr: string };

describe("etl-coverage over a plugin stack and a dynamic stack", { timeout: 600_000 }, () => {
  let service: Emulator;
  let pluginStack: TestStack;
  let dynamicStack: TestStack;
  const ids: Record<string, string> = {};
  let dynamicState: string;

  const connectionArgs = (name: string) => ({ type: "postgres", name, host: "h.example.com", database: "d", username: "u", password: pulumi.secret(PASSWORD) });
  const makeConnection = async (name: string) => {
    const made = await service.api("POST", "/connections/postgres", { name, host: "h.example.com", database: "d", username: "u", password: PASSWORD });
    expect(made.status).toBe(201);
    return String(made.body.id);
  };

  /** A command of the package, in the plugin stack's folder, with its backend and the engine on PATH. */
  const command = async (cli: string, args: string[], env: Record<string, string> = {}): Promise<Ran> => {
    const base = {
      ...process.env,
      ...testEnv(path.join(pluginStack.workDir, "backend")),
      ETL_API_KEY: service.apiKey,
      PATH: `${ENGINE_BIN}${path.delimiter}${process.env.PATH}`,
      ...env,
    };
    return run(process.execPath, [path.join(DIST, cli), ...args], { cwd: pluginStack.workDir, env: base, maxBuffer: 16 * 1024 * 1024 }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );
  };
  const coverage = (args: string[]) => command("coverage/cli.js", ["--stack", "test", "--state", dynamicState, "--api-url", service.url, ...args]);

  beforeAll(async () => {
    service = await startTestEmulator({ account: { connections: [...FLOW_CONNECTIONS, ...BULK] } });
    for (const name of ["analyst a", "shared", "doomed", "shadow"]) ids[name] = await makeConnection(name);
    const pkg = await service.api("POST", "/packages", { name: "analyst package" });
    ids.package = String(pkg.body.id);
    pluginStack = await createTestStack(
      "coverage-plugin",
      async () => {
        declare("plugin", "Connection", "analyst-a", { ...connectionArgs("analyst a"), importId: ids["analyst a"] });
        declare("plugin", "Connection", "shared", { ...connectionArgs("shared"), importId: ids.shared });
        const pipeline = declarePipeline("plugin", "rollup", {
          name: "rollup",
          flow: RESOURCE_EXAMPLES.Package.dataFlow,
          variables: { region: "'eu'", since: "2026-01-01" },
          schedule: { cron: "@monthly" },
          failureAlert: { type: "web", settings: { url: "https://alerts.example.com/etl" } },
        });
        return { packageId: pipeline.packageId, scheduleId: pipeline.scheduleId, hookId: pipeline.hookId };
      },
      service,
      {},
      { plugin: true },
    );
    dynamicStack = await createTestStack(
      "coverage-dynamic",
      async () => {
        declare("dynamic", "Connection", "shared", { ...connectionArgs("shared"), importId: ids.shared });
        declare("dynamic", "Connection", "doomed", { ...connectionArgs("doomed"), importId: ids.doomed });
        const own = declare("dynamic", "Connection", "by-code", connectionArgs("by code"));
        return { ownId: own.id };
      },
      service,
    );
    const [plugin, dynamic] = await Promise.all([pluginStack.stack.up(), dynamicStack.stack.up()]);
    ids.rollupPackage = plugin.outputs.packageId!.value;
    ids.rollupSchedule = plugin.outputs.scheduleId!.value;
    ids.rollupHook = plugin.outputs.hookId!.value;
    ids["by code"] = dynamic.outputs.ownId!.value;
    expect((await service.api("DELETE", `/connections/postgres/${ids.doomed}`)).status).toBeLessThan(300);
    dynamicState = path.join(dynamicStack.workDir, "dynamic-state.json");
    writeFileSync(dynamicState, JSON.stringify(await dynamicStack.stack.exportStack()));
  });

  afterAll(async () => {
    pluginStack?.dispose();
    dynamicStack?.dispose();
    await service?.emulator.close();
  });

  it("gives every object its status and its stacks, reading only, and counts its calls", async () => {
    await service.resetRequests();
    const ran = await coverage(["--json"]);
    expect(ran.code, ran.stderr).toBe(1);
    const report = JSON.parse(ran.stdout) as Report;
    const byKey = new Map(report.objects.map((o) => [`${o.kind}:${o.id}`, [o.status, o.stacks.join(" ")]]));
    const plugin = "etl-coverage-plugin/test";
    const dynamic = "etl-coverage-dynamic/test";
    expect(Object.fromEntries(byKey)).toEqual({
      [`Connection:${ids["analyst a"]}`]: ["managed", plugin],
      [`Connection:${ids.shared}`]: ["conflicting", `${dynamic} ${plugin}`],
      [`Connection:${ids.doomed}`]: ["missing", dynamic],
      [`Connection:${ids.shadow}`]: ["unmanaged", ""],
      [`Connection:${ids["by code"]}`]: ["managed", dynamic],
      "Connection:301": ["unmanaged", ""],
      "Connection:302": ["unmanaged", ""],
      ...Object.fromEntries(BULK.map((c) => [`Connection:${c.id}`, ["unmanaged", ""]])),
      [`Package:${ids.package}`]: ["unmanaged", ""],
      [`Package:${ids.rollupPackage}`]: ["managed", plugin],
      [`Schedule:${ids.rollupSchedule}`]: ["managed", plugin],
      [`Hook:${ids.rollupHook}`]: ["managed", plugin],
      [`UserSettings:${TEST_USER_ID}`]: ["unmanaged", ""],
    });
    expect(report.objects.find((o) => o.id === ids.doomed)).toMatchObject({
      name: "doomed",
      urns: [expect.stringContaining("::pulumi-nodejs:dynamic/etl:Connection::doomed")],
    });
    expect(report.accountId).toBe(service.accountId);
    expect(report.summary).toEqual({ managed: 5, unmanaged: 125, missing: 1, conflicting: 1, ignored: 0, coverage: 3.8 });

    expect(await service.writeRequests()).toEqual([]);
    const requests = await service.requests();
    const said = Number(/read in [\d.]+ s with (\d+) API calls \(\1 credits; \d+ of \d+ credits left this hour\)/.exec(ran.stderr)?.[1]);
    // What it counted, then the allowance it asked for at the end.
    expect(requests.length).toBe(said + 1);
    expect(requests.filter((r) => r.path.includes("/connections")).map((r) => r.path.replace(/\?.*/, ""))).toEqual([
      `/${service.accountId}/api/connections`,
      `/${service.accountId}/api/connections`,
    ]);
    expect(ran.stderr).toMatch(/^etl-coverage: Connection: 126 listed$/m);
  });

  it("prints the table, with the ignore file of the folder; everything ignored or managed exits 0 and writes the HTML page", async () => {
    writeFileSync(path.join(pluginStack.workDir, ".etl-coverage-ignore"), "# loaded by the migration\nConnection:name=bulk *\n");
    const table = await coverage([]);
    expect(table.code).toBe(1);
    expect(table.stdout.split("\n")[0]).toBe(`account ${service.accountId}: coverage 45.4% (5 managed, 5 unmanaged, 1 missing, 1 conflicting, 120 ignored)`);
    expect(table.stdout).toMatch(/^Connection +2 +3 +1 +1 +120$/m);
    expect(table.stdout).toMatch(new RegExp(`^conflicting +Connection +${ids.shared} +shared +etl-coverage-dynamic/test, etl-coverage-plugin/test$`, "m"));
    expect(table.stdout).not.toContain("bulk 7");

    const everything = path.join(pluginStack.workDir, "all.ignore");
    writeFileSync(everything, `Connection:*\nPackage:${ids.package}\nUserSettings:name=me\n`);
    const page = path.join(pluginStack.workDir, "coverage.html");
    const clean = await coverage(["--ignore", everything, "--html", page, "--markdown"]);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toContain("coverage 100%");
    const html = readFileSync(page, "utf8");
    expect(html).toContain("<svg");
    expect(html).toMatch(/<title>Hook: 1 managed<\/title>/);
    expect(html).not.toMatch(/<script|<link|src=/);
  });

  it("an unreadable state or a bad rule is exit 2 naming the file, before any call", async () => {
    await service.resetRequests();
    const missing = await coverage(["--state", "nowhere.json"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("etl-coverage: --state nowhere.json cannot be read: ENOENT\n");
    writeFileSync(path.join(pluginStack.workDir, "bad.ignore"), "Connection:1\nConection:*\n");
    const badRule = await coverage(["--ignore", "bad.ignore"]);
    expect(badRule.code).toBe(2);
    expect(badRule.stderr).toMatch(/^etl-coverage: bad.ignore:2: "Conection" is not a kind; the kinds are /);
    const noStack = await coverage(["--stack", "nosuch"]);
    expect(noStack.code).toBe(2);
    expect(noStack.stderr).toMatch(/^etl-coverage: --stack nosuch: pulumi stack export failed/);
    expect(await service.requests()).toEqual([]);
  });

  it("etl-export --unmanaged writes only the connections no stack holds", async () => {
    const out = path.join(pluginStack.workDir, "unmanaged");
    const exported = await command(
      "export/cli.js",
      ["--unmanaged", "--stack", "test", "--state", dynamicState, "--language", "yaml", "--out", out, "--only", "connections"],
      {
        ETL_API_URL: service.url,
        ETL_ACCOUNT_ID: service.accountId,
      },
    );
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain("--unmanaged: 7 objects the stacks hold are left out");
    const imported = JSON.parse(readFileSync(path.join(out, "import.json"), "utf8")) as { resources: Array<{ id: string }> };
    expect(imported.resources.map((r) => r.id).sort()).toEqual([ids.shadow!, "301", "302", ...BULK.map((c) => String(c.id))].sort());
  });
});
