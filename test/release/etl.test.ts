/**
 * A user with only the release's `etl` archive and the plugin's, and no Node.js on PATH: `etl
 * emulator` starts the emulator that a YAML program is deployed to; a `pulumi up` killed while its
 * creates wait for their answers is recovered with `etl recover`, after which `pulumi up` makes
 * nothing twice; `etl export` writes the account as a program; `etl coverage` reads the stack
 * through the pulumi CLI and reports the program's objects managed, the account's others unmanaged;
 * and the steps `etl export` prints, pasted into bash, import the account.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, processesOf } from "../support/cli";
import { exportedSettings, printedSteps, runInFreshShell } from "../support/export-steps";
import { killQuietly } from "../support/processes";
import { findsOnPath, installPluginFromArchive, newUserMachine, VERSION, type UserMachine } from "../support/release";
import { configureProgram, TIMEOUT_MS, writeProgram } from "../support/release-lifecycle";
import { pipelineIds } from "../support/release-pipeline";
import { expectChecksummed, firstLines, serviceFromStartup, startCommand, unpackArchive } from "../support/release-tools";
import { serviceAt } from "../support/service";

type Named = { id: number; name: string; status?: string };
/** The program's connection's name: the account `etl emulator` makes holds a "warehouse" of its own. */
const CONNECTION_NAME = "etl-tools-warehouse";

describe("the release's etl executable, with no Node.js on PATH", { timeout: TIMEOUT_MS }, () => {
  let machine: UserMachine;
  let emulator: ReturnType<typeof startCommand> | undefined;
  let service: ReturnType<typeof serviceAt>;

  /** `etl <args>` run to its end in the project folder. */
  const etl = async (args: string[], env: Record<string, string> = {}) => {
    const run = startCommand({ ...machine, env: { ...machine.env, ...env } }, "etl", args);
    return { code: await run.exited, output: run.output() };
  };
  /** The program's objects on the service, by kind: those named as the program names them (a package lives on archived). */
  const programObjects = async () => {
    const account = (await service.state()).accounts[0] as Record<string, Named[]>;
    const named = (kind: string, name: string) => account[kind]!.filter((row) => row.name === name && row.status !== "archived").map((row) => String(row.id));
    return {
      connectionId: named("connections", CONNECTION_NAME),
      pipelinePackageId: named("packages", "orders rollup"),
      pipelineScheduleId: named("schedules", "orders rollup"),
      pipelineHookId: named("hooks", "orders rollup failures"),
    };
  };
  const creating = (operations: Array<{ type: string }> | undefined) => (operations ?? []).filter((operation) => operation.type === "creating");
  const pendingCreates = async () => creating(JSON.parse((await machine.pulumi(["stack", "export"])).output).deployment.pending_operations);
  /**
   * The pending creates as the backend's state file holds them. Pulumi cannot read the stack while
   * the state's metadata is broken, which a kill as the backend rewrites it leaves (until etl
   * recover removes it): the file is read here rather than through the CLI.
   */
  const pendingCreatesInStateFile = () => {
    const stacks = path.join(new URL(machine.env.PULUMI_BACKEND_URL!).pathname, ".pulumi", "stacks");
    const [project] = readdirSync(stacks);
    const [stack] = readdirSync(path.join(stacks, project!)).filter((name) => name.endsWith(".json"));
    return creating(JSON.parse(readFileSync(path.join(stacks, project!, stack!), "utf8")).checkpoint.latest.pending_operations);
  };

  beforeAll(async () => {
    machine = newUserMachine("etl-tools", { withoutNode: true });
    machine.env.PATH = `${unpackArchive(machine, "etl")}${path.delimiter}${machine.env.PATH}`;
    writeProgram(machine, "yaml", "  name: yaml\n");
    await installPluginFromArchive(machine);
  }, TIMEOUT_MS);

  /** A killed CLI leaves its language host and plugin behind: every process of the machine's backend but the emulator. */
  const killLeftovers = () => {
    for (const { pid } of processesOf(machine)) if (pid !== emulator?.child.pid) killQuietly(pid);
  };

  afterAll(() => {
    if (emulator?.child.pid !== undefined) killQuietly(emulator.child.pid);
    if (machine !== undefined) killLeftovers();
    machine?.dispose();
  });

  it("runs from the archive on a PATH with no node: etl --version prints the release's version", async () => {
    expect(findsOnPath("node", machine.env.PATH)).toBe(false);
    expect(findsOnPath("etl", machine.env.PATH)).toBe(true);
    expect(await etl(["--version"])).toEqual({ code: 0, output: `${VERSION}\n` });
  });

  it("checksums.txt lists the etl archive of every platform", () => expectChecksummed("etl"));

  it("an unknown command gets the usage and exit 2, no stack trace", async () => {
    const run = await etl(["deploy"]);
    expect(run.code).toBe(2);
    expect(run.output).toBe(
      `etl: unknown command "deploy"\nusage: etl export|coverage|recover|emulator [OPTIONS]    (etl <command> --help: the command's options)\n       etl --version\n`,
    );
  });

  it("etl emulator starts the emulator, printing its address and a key", async () => {
    emulator = startCommand(machine, "etl", ["emulator", "--port", "0"]);
    const startup = await firstLines(emulator.child, 3);
    expect(startup[0]).toMatch(/^etl-emulator listening on http:\/\/127\.0\.0\.1:\d+$/);
    service = serviceAt(serviceFromStartup(startup));
    expect((await fetch(`${service.url}/_emulator/health`)).status).toBe(200);
  });

  it("a pulumi up of the YAML program SIGKILLed while a create waits for its answer leaves the connection on the service and pending creates", async () => {
    await configureProgram(machine, service, `etl-tools-SECRET-${process.pid}`);
    await machine.pulumi(["config", "set", "test:connectionName", CONNECTION_NAME]);
    // Each create is applied at once and its answer held back: the kill lands between the two.
    await service.faults({ rate: 1, kinds: ["hold_after"], methods: ["POST"], holdMs: 10_000 });
    const up = startCommand(machine, "pulumi", ["up", "--yes", "--skip-preview", "--non-interactive"]);
    await eventually("the connection made", async () => ((await programObjects()).connectionId.length === 1 ? true : undefined));
    up.child.kill("SIGKILL");
    await up.exited;
    await service.faults();
    killLeftovers();
    expect(pendingCreatesInStateFile().length).toBeGreaterThan(0);
  });

  it("etl recover adopts what the killed run made; pulumi up then completes with no object made twice", async () => {
    const recovered = await etl(["recover"]);
    expect(recovered.code, recovered.output).toBe(0);
    expect(recovered.output).toMatch(/state updated: [1-9]\d* adopted/);
    expect(recovered.output).not.toContain(service.apiKey);
    expect(await pendingCreates()).toEqual([]);
    await machine.pulumi(["up", "--yes", "--skip-preview"]);
    const onService = await programObjects();
    const outputs = await pipelineIds(machine);
    const connectionId = (await machine.pulumi(["stack", "output", "connectionId"])).output.trim();
    expect(onService).toEqual({
      connectionId: [connectionId],
      pipelinePackageId: [outputs.packageId],
      pipelineScheduleId: [outputs.scheduleId],
      pipelineHookId: [outputs.hookId],
    });
  });

  it("etl export writes the account as a YAML program with the program's objects and an import file of their ids", async () => {
    const out = path.join(path.dirname(machine.dir), "exported");
    const exported = await etl(["export", "--language", "yaml", "--out", out, "--api-url", service.url, "--account-id", service.accountId], {
      ETL_API_KEY: service.apiKey,
    });
    expect(exported.code, exported.output).toBe(0);
    expect(exported.output).toMatch(/^wrote \d+ files to /m);
    expect(existsSync(path.join(out, "Pulumi.yaml"))).toBe(true);
    const program = readFileSync(path.join(out, "Pulumi.yaml"), "utf8");
    expect(program).toMatch(/^runtime: yaml$/m);
    expect(program).toMatch(/type: etl:(index:)?Connection/);
    const imported = JSON.parse(readFileSync(path.join(out, "import.json"), "utf8")) as { resources: Array<{ type: string; id: string }> };
    const onService = await programObjects();
    expect(imported.resources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "etl:index:Connection", id: onService.connectionId[0] }),
        expect.objectContaining({ type: "etl:index:Schedule", id: onService.pipelineScheduleId[0] }),
        expect.objectContaining({ type: "etl:index:Hook", id: onService.pipelineHookId[0] }),
      ]),
    );
  });

  it("etl coverage reads the stack through pulumi and its settings, reporting the program's objects managed and the account's others unmanaged, exit 1", async () => {
    const run = await etl(["coverage", "--stack", "dev", "--json"]);
    expect(run.code, run.output).toBe(1);
    const stdout = run.output
      .split("\n")
      .filter((line) => !line.startsWith("etl-coverage: "))
      .join("\n");
    const report = JSON.parse(stdout) as { objects: Array<{ kind: string; id: string; name: string; status: string; stacks: string[] }> };
    const statusOf = (kind: string, id: string | undefined) => report.objects.find((o) => o.kind === kind && o.id === id)?.status;
    const onService = await programObjects();
    expect(statusOf("Connection", onService.connectionId[0])).toBe("managed");
    expect(statusOf("Package", onService.pipelinePackageId[0])).toBe("managed");
    expect(statusOf("Schedule", onService.pipelineScheduleId[0])).toBe("managed");
    expect(report.objects.filter((o) => o.kind === "Connection" && o.name === "warehouse").map((o) => o.status)).toEqual(["unmanaged"]);
    expect(run.output).toMatch(/^etl-coverage: read in [\d.]+ s with \d+ API calls/m);
    expect(run.output).not.toContain(service.apiKey);
  });

  it("the steps etl export prints, pasted into bash on the machine with no Node.js, import every object into a stack of its own and preview empty", async () => {
    const out = path.join(path.dirname(machine.dir), "acme");
    const exported = await etl(["export", "--language", "yaml", "--out", out, "--api-url", service.url, "--account-id", service.accountId], {
      ETL_API_KEY: service.apiKey,
    });
    expect(exported.code, exported.output).toBe(0);
    expect(readFileSync(path.join(out, "Pulumi.prod.yaml"), "utf8")).toBe(`config:\n  etl:apiUrl: "${service.url}"\n  etl:accountId: "${service.accountId}"\n`);
    const objects = Number(/^exported (\d+) objects/m.exec(exported.output)![1]);
    const settings = exportedSettings(exported.output);
    // The user's shell: the plugin installed from its archive in their Pulumi home, the program's stack in the same backend.
    const pasted = await runInFreshShell(printedSteps(exported.output), {
      path: machine.env.PATH!.split(path.delimiter),
      scratch: path.join(path.dirname(machine.dir), "shell"),
      env: {
        PULUMI_HOME: machine.home,
        PULUMI_BACKEND_URL: machine.env.PULUMI_BACKEND_URL!,
        PULUMI_CONFIG_PASSPHRASE: machine.env.PULUMI_CONFIG_PASSPHRASE!,
        ETL_API_KEY: service.apiKey,
        ...Object.fromEntries(
          settings.map((setting) => [setting.variable, setting.what.endsWith("Url") ? "https://hooks.example.com/x" : `exported-${setting.name}`]),
        ),
      },
    });
    expect(pasted.code, pasted.output).toBe(0);
    expect(pasted.output).toMatch(new RegExp(`= ${objects} imported\n`));
    expect(pasted.output.slice(pasted.output.lastIndexOf("Previewing update (prod)"))).toMatch(new RegExp(`Resources:\n +${objects + 1} unchanged\n`));
    expect(exported.output + pasted.output).not.toContain(service.apiKey);
  });
});
