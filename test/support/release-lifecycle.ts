/**
 * A program of a language whose SDK comes from the release folder alone (test/release/programs:
 * a postgres connection named by the stack's settings, and a `Pipeline` on a cron the settings
 * give), run by the `pulumi` CLI with no Node.js on its PATH against the plugin installed from the
 * release's archive: up, an unchanged preview whose one call proves the settings (in Python, a wrong
 * key and another account's user's key failing it, no call with `etl:skipCredentialsValidation`; in
 * YAML, a wrong key; each failure one error, on the provider, the engine's interrupt of the idle
 * Python program apart), refresh,
 * an update in place of each, destroy, the state and the service's records checked after each.
 */
import { cpSync, existsSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  expectHookAndPackage,
  expectPipelineDestroyed,
  expectPipelineInState,
  expectScheduleOfCron,
  PIPELINE_CRON,
  pipelineIds,
  type PipelineIds,
} from "./release-pipeline";
import { configureStack, findsOnPath, installPluginFromArchive, newUserMachine, VERSION, type UserMachine } from "./release";
import type { Service } from "./engine";
import { startTestEmulator, type Emulator } from "./service";
import { cliStack, ELSEWHERE_ACCOUNT, expectSettingsProvenAtPreview, expectWrongKeyRefusedOnce, SETTINGS_PROOF } from "./settings-proof";

const PROGRAMS = path.join(__dirname, "..", "release", "programs");
/** An operation of the release lifecycle may wait on a language host set up for the first time. */
export const TIMEOUT_MS = 900_000;

export type ReleaseLanguage = "python" | "yaml";

export interface ReleaseProject {
  /** Pulumi.yaml's `runtime` entry. */
  runtime: string;
  /** More environment for the machine (where the language's tools find packages). */
  env?: Record<string, string>;
  /** Installs the SDK from the release folder into the project holding the program's files. */
  install(machine: UserMachine): Promise<void> | void;
  /** Checks of the installed SDK, each a test of its own, run before the first `pulumi up`. */
  installedChecks?: Record<string, (machine: UserMachine) => void | Promise<void>>;
  /** The unchanged preview run in another environment the project is to work in, named for the test's title. */
  unchangedPreviewEnv?: { named: string; env(machine: UserMachine): Record<string, string | undefined> };
  /**
   * Takes the project folder and its emulator once destroy has passed, to go on with and
   * dispose of; otherwise both are disposed of when the lifecycle ends.
   */
  keep?(machine: UserMachine, service: Emulator): void;
}

/** The language's program and its Pulumi.yaml (unless the program is one) in the machine's empty project folder. */
export function writeProgram(machine: UserMachine, language: ReleaseLanguage, runtime: string): void {
  cpSync(path.join(PROGRAMS, language), machine.dir, { recursive: true });
  const project = path.join(machine.dir, "Pulumi.yaml");
  if (!existsSync(project)) writeFileSync(project, `name: etl-release-${language}\nruntime:\n${runtime}`);
}

/** The stack's settings for the program: the connection's name, its password as a secret, the pipeline's cron. */
export async function configureProgram(machine: UserMachine, service: Service, password: string): Promise<void> {
  await configureStack(machine, "dev", service);
  await machine.pulumi(["config", "set", "test:connectionName", "warehouse"]);
  await machine.pulumi(["config", "set", "--secret", "test:password", password]);
  await machine.pulumi(["config", "set", "test:pipelineCron", PIPELINE_CRON.first]);
}

/** The program's `connectionId` output, as `pulumi stack output` prints it. */
export async function connectionId(machine: UserMachine): Promise<number> {
  const { output } = await machine.pulumi(["stack", "output", "connectionId"]);
  const id = Number(output.trim());
  if (!Number.isInteger(id)) throw new Error(`pulumi stack output connectionId printed ${output}`);
  return id;
}

/** The connection as the service holds it (status 404 once deleted). */
export async function serviceConnection(service: Emulator, id: number): Promise<{ status: number; body: any }> {
  return service.api("GET", `/connections/postgres/${id}`);
}

export function describeReleaseLifecycle(language: ReleaseLanguage, project: ReleaseProject): void {
  describe(`a ${language} program installed from the release folder alone, with no Node.js on PATH`, { timeout: TIMEOUT_MS }, () => {
    const password = `${language}-release-SECRET-${process.pid}`;
    let service: Emulator;
    let machine: UserMachine;
    let id: number;
    let pipeline: PipelineIds;
    let kept = false;
    const connections = async () => (await service.state()).accounts[0].connections as Array<{ id: number; name: string }>;

    beforeAll(async () => {
      service = await startTestEmulator({ otherAccounts: [ELSEWHERE_ACCOUNT] });
      machine = newUserMachine(`${language}-release`, { withoutNode: true, env: project.env });
      writeProgram(machine, language, project.runtime);
      await project.install(machine);
      await installPluginFromArchive(machine);
      await configureProgram(machine, service, password);
    }, TIMEOUT_MS);

    afterAll(async () => {
      if (kept) return;
      machine?.dispose();
      await service?.emulator.close();
    });

    it("the CLI's PATH finds no node, and the plugin is the release's archive, installed", async () => {
      expect(findsOnPath("node", machine.env.PATH)).toBe(false);
      const plugins = JSON.parse((await machine.pulumi(["plugin", "ls", "--json"])).output) as Array<{ name: string; kind: string; version: string }>;
      expect(plugins.map(({ name, kind, version }) => ({ name, kind, version }))).toEqual([{ name: "etl", kind: "resource", version: VERSION }]);
    });

    for (const [name, check] of Object.entries(project.installedChecks ?? {})) it(name, () => check(machine));

    it("up creates the connection, and the pipeline's package, schedule and hook under its component", async () => {
      await machine.pulumi(["up", "--yes"]);
      id = await connectionId(machine);
      expect((await serviceConnection(service, id)).body).toMatchObject({ name: "warehouse", host: "warehouse.db.example.com", username: "etl" });
      expect((await connections()).map((row) => row.id)).toEqual([id]);
      pipeline = await pipelineIds(machine);
      await expectPipelineInState(machine, pipeline);
      // 06:00 in New Delhi (UTC+05:30) on the service's anchor day, daily.
      await expectScheduleOfCron(service, pipeline, { unit: "days", startAt: "2026-01-01T00:30:00.000Z" });
      await expectHookAndPackage(service, pipeline);
    });

    const previewEnv = project.unchangedPreviewEnv;
    it(`an unchanged preview${previewEnv ? ` ${previewEnv.named}` : ""} proposes nothing and makes one API call, proving the settings; refresh reads the connection and the pipeline's children and finds them unchanged`, async () => {
      await service.resetRequests();
      await machine.pulumi(["preview", "--expect-no-changes"], { env: previewEnv?.env(machine) });
      expect(await service.allCalls()).toEqual([SETTINGS_PROOF]);
      await machine.pulumi(["refresh", "--yes", "--expect-no-changes"]);
      expect(await service.calls()).toEqual(
        expect.arrayContaining([
          `GET /connections/postgres/${id}`,
          `GET /schedules/${pipeline.scheduleId}`,
          `GET /hooks/${pipeline.hookId}`,
          `GET /packages/${pipeline.packageId}`,
        ]),
      );
      expect(await service.writeRequests()).toEqual([]);
      expect((await serviceConnection(service, id)).body).toMatchObject({ name: "warehouse" });
    });

    // Python's, as a team with no Node.js meets it; YAML's plugin is the same code (test/engine/unreachable.test.ts), its
    // language host is not: a wrong key with the program's pipeline.
    if (language === "python") {
      it("a wrong key and another account's user's key fail the preview with one call and one error, on the provider, naming the settings; etl:skipCredentialsValidation spares the call", async () => {
        await expectSettingsProvenAtPreview(service, cliStack(machine, true));
      });
    } else {
      it("a wrong key fails the preview with one call and one error, on the provider, and nothing from the pipeline's construction", async () => {
        await expectWrongKeyRefusedOnce(service, cliStack(machine));
      });
    }

    it("a new name updates the connection in place, a new cron the pipeline's schedule", async () => {
      await machine.pulumi(["config", "set", "test:connectionName", "warehouse-renamed"]);
      await machine.pulumi(["config", "set", "test:pipelineCron", PIPELINE_CRON.updated]);
      await service.resetRequests();
      await machine.pulumi(["up", "--yes"]);
      expect((await service.writeRequests()).map((call) => `${call.method} ${call.path}`).sort()).toEqual([
        expect.stringMatching(new RegExp(`^PUT .*/connections/postgres/${id}$`)),
        expect.stringMatching(new RegExp(`^PUT .*/schedules/${pipeline.scheduleId}$`)),
      ]);
      expect(await connectionId(machine)).toBe(id);
      expect((await serviceConnection(service, id)).body).toMatchObject({ name: "warehouse-renamed" });
      expect(await pipelineIds(machine)).toEqual(pipeline);
      // Mondays at 07:30 in New Delhi: the first Monday on or after the anchor day is 2026-01-05.
      await expectScheduleOfCron(service, pipeline, { unit: "weeks", startAt: "2026-01-05T02:00:00.000Z" });
    });

    it("destroy deletes the connection, the schedule and the hook, and archives the package", async () => {
      await machine.pulumi(["destroy", "--yes"]);
      expect((await serviceConnection(service, id)).status).toBe(404);
      expect(await connections()).toEqual([]);
      await expectPipelineDestroyed(service, pipeline);
      if (project.keep) {
        project.keep(machine, service);
        kept = true;
      }
    });
  });
}
