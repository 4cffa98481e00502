/**
 * The policy pack from the release's archive alone, with no Node.js on PATH: `pulumi preview
 * --policy-pack <the unpacked executable>` passes a compliant YAML program, fails the same program
 * once its pipeline alerts a plain-http hook (YAML and Python, naming the rule), and takes a
 * policy config file (`--policy-pack-config`) that sets a rule's level and another's setting.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findsOnPath, installPluginFromArchive, installReleaseWheel, newUserMachine, RELEASE_PIP_ENV, VERSION, type UserMachine } from "../support/release";
import { configureProgram, TIMEOUT_MS, writeProgram, type ReleaseLanguage } from "../support/release-lifecycle";
import { expectChecksummed, unpackArchive } from "../support/release-tools";
import { startTestEmulator, type Emulator } from "../support/service";

const PACK = "pulumi-policy-etl";
/** The release programs' failure alert, and the same address without TLS, which etl-hook-https refuses. */
const ALERT_URL = { https: "https://alerts.example.com/etl", http: "http://alerts.example.com/etl" };
const PROGRAM_FILE: Record<ReleaseLanguage, string> = { yaml: "Pulumi.yaml", python: "__main__.py" };
/** What etl-hook-https says of the pipeline's hook, which the plugin builds with the failure alert's address. */
const HOOK_REFUSED = `Hook "rollup-alert": settings.url must be an https URL, got "${ALERT_URL.http}".`;
const RUNTIME: Record<ReleaseLanguage, string> = { yaml: "  name: yaml\n", python: "  name: python\n" };

describe("the release's policy pack, run by pulumi preview with no Node.js on PATH", { timeout: TIMEOUT_MS }, () => {
  let service: Emulator;
  const machines: Partial<Record<ReleaseLanguage, UserMachine>> = {};
  let pack: string;

  /** A machine with the plugin from its archive and the language's release program (its SDK installed by `install`) on a configured stack. */
  async function machineWith(
    language: ReleaseLanguage,
    alert: keyof typeof ALERT_URL,
    install?: (machine: UserMachine) => Promise<void> | void,
  ): Promise<UserMachine> {
    const machine = newUserMachine(`policy-${language}`, { withoutNode: true, env: RELEASE_PIP_ENV });
    machines[language] = machine;
    writeProgram(machine, language, RUNTIME[language]);
    setAlertUrl(machine, language, ALERT_URL[alert]);
    await install?.(machine);
    await installPluginFromArchive(machine);
    await configureProgram(machine, service, `policy-${language}-SECRET`);
    return machine;
  }

  function setAlertUrl(machine: UserMachine, language: ReleaseLanguage, url: string): void {
    const file = path.join(machine.dir, PROGRAM_FILE[language]);
    const source = readFileSync(file, "utf8");
    const alerts = Object.values(ALERT_URL).filter((known) => source.includes(known));
    if (alerts.length !== 1) throw new Error(`${file} names no failure alert address of ${Object.values(ALERT_URL).join(", ")}`);
    writeFileSync(file, source.replace(alerts[0]!, url));
  }

  /** `pulumi preview --policy-pack <pack> [--policy-pack-config <file of config>]`, to its end. */
  async function previewWithPack(machine: UserMachine, config?: Record<string, unknown>) {
    const args = ["preview", "--policy-pack", pack];
    if (config !== undefined) {
      const file = path.join(path.dirname(machine.dir), "policy-config.json");
      writeFileSync(file, JSON.stringify(config));
      args.push("--policy-pack-config", file);
    }
    return machine.pulumi(args, { allowFailure: true });
  }

  beforeAll(async () => {
    service = await startTestEmulator();
    const yaml = await machineWith("yaml", "https");
    pack = path.join(unpackArchive(yaml, PACK), PACK);
  }, TIMEOUT_MS);

  afterAll(async () => {
    for (const machine of Object.values(machines)) machine.dispose();
    await service?.emulator.close();
  });

  it("checksums.txt lists the pack's archive of every platform", () => expectChecksummed(PACK));

  it("passes a compliant YAML program, the pack's executable started from the archive with no node on PATH", async () => {
    expect(findsOnPath("node", machines.yaml!.env.PATH)).toBe(false);
    const preview = await previewWithPack(machines.yaml!);
    expect(preview.code, preview.output).toBe(0);
    expect(preview.output).toContain(`etl-platform@v${VERSION}`);
    expect(preview.output).not.toMatch(/mandatory|advisory/);
  });

  it("a policy config file's setting applies: maxNodes 2 fails the program's three-node pipeline, naming the rule", async () => {
    const preview = await previewWithPack(machines.yaml!, { "etl-cluster-max-nodes": { maxNodes: 2 } });
    expect(preview.code).not.toBe(0);
    expect(preview.output).toContain("[mandatory]  etl-cluster-max-nodes");
    // The engine checks the pipeline's children, which the plugin builds: the schedule runs on the three nodes.
    expect(preview.output).toContain('Schedule "rollup-schedule": task.nodes is 3, more than the 2 allowed (maxNodes).');
  });

  it("a YAML pipeline alerting a plain-http hook fails the preview, naming the rule; set advisory by the config, it warns and passes", async () => {
    setAlertUrl(machines.yaml!, "yaml", ALERT_URL.http);
    const refused = await previewWithPack(machines.yaml!);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain("[mandatory]  etl-hook-https");
    expect(refused.output).toContain(HOOK_REFUSED);
    const warned = await previewWithPack(machines.yaml!, { "etl-hook-https": "advisory" });
    expect(warned.code, warned.output).toBe(0);
    expect(warned.output).toContain("[advisory]  etl-hook-https");
  });

  it("a Python pipeline alerting a plain-http hook fails the preview, naming the rule", async () => {
    const machine = await machineWith("python", "http", installReleaseWheel);
    expect(findsOnPath("node", machine.env.PATH)).toBe(false);
    const refused = await previewWithPack(machine);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain("[mandatory]  etl-hook-https");
    expect(refused.output).toContain(HOOK_REFUSED);
  });
});
