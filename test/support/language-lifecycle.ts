/**
 * One lifecycle, run by a program in each language through its generated SDK and the plugin: a
 * PublicKey, a Connection with a secret password, a Schedule, a JobRun and a Package whose flow
 * uses the connection's id, and resources given as inputs (two Connections to a ConnectionGroup
 * and to a Delivery's ends, the Package to the Schedule, a Cluster to the JobRun); up; an unchanged
 * preview whose one call of the provider proves its settings (in Go, a wrong key and another
 * account's user's key failing it, none with `etl:skipCredentialsValidation`); refresh with no change; an update in place and a
 * replace; drift corrected; an object deleted out of band and made again; two functions;
 * destroy leaving nothing; the password and the API key in no file and no output. The TypeScript
 * program also declares a `Pipeline` from a template; the Go program, the release programs'
 * `Pipeline` on a cron the settings give (made, read by refresh, updated in place, destroyed), its
 * connection's name also from the settings.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineEvent, OutputMap } from "@pulumi/pulumi/automation";
import { createLanguageStack, type Language, type LanguageStack } from "./language-project";
import { ed25519PublicKeyLine } from "./keys";
import { startTestEmulator, type Emulator } from "./service";
import {
  expectHookAndPackage,
  expectPipelineDestroyed,
  expectPipelineInExport,
  expectScheduleOfCron,
  type ExportedState,
  PIPELINE_CRON,
  pipelineIdsOf,
  type PipelineIds,
} from "./release-pipeline";
import { filesUnder } from "./soak";
import { automationStack, ELSEWHERE_ACCOUNT, expectSettingsProvenAtPreview, SETTINGS_PROOF } from "./settings-proof";

const PACKAGE = { id: 101, name: "orders-rollup", run: { seconds: 20, outputs: [{ name: "out", records: 10 }] } };
const CLUSTER = { id: 201, name: "ready", nodes: 4 };
/** The calls of the functions the programs call, which are the program's own reads. */
const FUNCTION_CALLS = /\/packages\/101|\/regions/;
/** A Go program is compiled by every operation; the first compile of its dependencies is the slow one. */
const TIMEOUT_MS = 900_000;

/** The languages whose lifecycle program declares the release programs' `Pipeline` on a cron. */
const CRON_PIPELINE: readonly Language[] = ["go"];
/**
 * The languages whose lifecycle also meets settings that cannot work at preview: Go's, run with no
 * Node.js; the plugin's proof is the same code for every language (Python's: the release lifecycle).
 */
const SETTINGS_PROOF_LANGUAGES: readonly Language[] = ["go"];

/** The plain values of a stack's outputs. */
const plain = (outputs: OutputMap) => Object.fromEntries(Object.entries(outputs).map(([name, output]) => [name, output.value]));

/** The TypeScript program's pipeline: its package made from the template, both ends on the warehouse, validated; its schedule and hook made. */
async function expectPipelineFromTemplate(service: Emulator, outputs: OutputMap): Promise<void> {
  const packageId = outputs.pipelinePackageId!.value;
  const flow = (await service.api("GET", `/packages/${packageId}/export`)).body.data_flow_json as { components: Array<{ connection?: { id: number } }> };
  expect(flow.components.map((component) => component.connection?.id)).toEqual([Number(outputs.warehouseId!.value), Number(outputs.warehouseId!.value)]);
  const validations = (await service.api("GET", `/packages/${packageId}/validations`)).body as Array<{ status: string }>;
  expect(validations.map((validation) => validation.status)).toEqual(["completed"]);
  expect((await service.api("GET", `/schedules/${outputs.pipelineScheduleId!.value}`)).body).toMatchObject({ name: "orders rollup", task: { nodes: 3 } });
  expect((await service.api("GET", `/hooks/${outputs.pipelineHookId!.value}`)).body).toMatchObject({ type: "web", events: ["job.failed"] });
}

export interface LifecycleOptions {
  /** Makes the stack: by default the program finds the repository's SDK and plugin. */
  createStack?: typeof createLanguageStack;
  /** How the program got its SDK and plugin, for the test's title. */
  installed?: string;
  /** Checks of what the project installed, each a test of its own, run before the first `up`. */
  installedChecks?: Record<string, () => void | Promise<void>>;
}

export function describeLanguageLifecycle(language: Language, options: LifecycleOptions = {}): void {
  const { createStack = createLanguageStack, installed = "the generated SDK and the plugin", installedChecks = {} } = options;
  const cronPipeline = CRON_PIPELINE.includes(language);
  describe(`a ${language} program through ${installed}`, { timeout: TIMEOUT_MS }, () => {
    const password = `${language}-SECRET-pw-${process.pid}`;
    const key = ed25519PublicKeyLine(`${language}@example.com`);
    let service: Emulator;
    let test: LanguageStack;
    let outputs: OutputMap;
    let pipeline: PipelineIds;
    const cliOutput: string[] = [];
    const events: EngineEvent[] = [];
    const onOutput = (text: string) => cliOutput.push(text);
    const onEvent = (event: EngineEvent) => events.push(event);
    const up = async (options: { refresh?: boolean } = {}) => (outputs = (await test.stack.up({ onOutput, onEvent, ...options })).outputs);
    const setNames = (keyName: string, scheduleName: string) =>
      test.stack.setAllConfig({ "test:keyName": { value: keyName }, "test:scheduleName": { value: scheduleName } });
    const cronPipelineConfig = { "test:connectionName": { value: "warehouse" }, "test:pipelineCron": { value: PIPELINE_CRON.first } };
    const schedule = async () => (await service.api("GET", `/schedules/${outputs.scheduleId!.value}`)).body as { name: string };

    beforeAll(async () => {
      service = await startTestEmulator({ speed: 20, account: { packages: [PACKAGE], clusters: [CLUSTER] }, otherAccounts: [ELSEWHERE_ACCOUNT] });
      test = await createStack(language, service, {
        "test:keyLine": { value: key.line },
        "test:keyName": { value: "deploy" },
        "test:scheduleName": { value: "nightly" },
        "test:password": { value: password, secret: true },
        ...(cronPipeline ? cronPipelineConfig : {}),
      });
    }, TIMEOUT_MS);

    afterAll(async () => {
      test?.dispose();
      await service?.emulator.close();
    });

    for (const [name, check] of Object.entries(installedChecks)) it(name, check);

    it("up creates every object through the plugin, and the functions answer", async () => {
      await up();
      expect(outputs.fingerprint!.value).toBe(key.fingerprint);
      expect(outputs.jobStatus!.value).toBe("completed");
      expect(outputs.packageValidation!.value).toBe("completed");
      expect(outputs.packageName!.value).toBe("orders-rollup");
      expect(outputs.regionCount!.value).toBeGreaterThan(0);
      expect(outputs.password!.secret).toBe(true);
      expect(await schedule()).toMatchObject({ name: "nightly" });
      const connection = await service.api("GET", `/connections/postgres/${outputs.warehouseId!.value}`);
      expect(connection.body).toMatchObject({ host: "warehouse.db.example.com", database: "analytics" });
      if (language === "typescript") await expectPipelineFromTemplate(service, outputs);
      if (cronPipeline) {
        pipeline = pipelineIdsOf(plain(outputs));
        expectPipelineInExport((await test.stack.exportStack()) as ExportedState, pipeline);
        // 06:00 in New Delhi (UTC+05:30) on the service's anchor day, daily.
        await expectScheduleOfCron(service, pipeline, { unit: "days", startAt: "2026-01-01T00:30:00.000Z" });
        await expectHookAndPackage(service, pipeline);
      }
    });

    it("each resource given as an input stands for what that input takes", async () => {
      const [warehouseId, bucketId] = [Number(outputs.warehouseId!.value), Number(outputs.bucketId!.value)];
      const group = (await service.api("GET", `/connection_groups/${outputs.groupId!.value}`)).body as { connections: Array<{ id: number }> };
      expect(group.connections.map((connection) => connection.id).sort()).toEqual([warehouseId, bucketId].sort());
      expect(outputs.deliverySource!.value).toMatchObject({ connection: { id: warehouseId, type: "postgres" } });
      expect(outputs.deliveryDestination!.value).toMatchObject({ connection: { id: bucketId, type: "s3" } });
      expect(outputs.scheduleTask!.value.packages).toEqual([expect.objectContaining({ packageId: Number(outputs.packageId!.value) })]);
      expect(Number(outputs.jobClusterId!.value)).toBe(Number(outputs.clusterId!.value));
    });

    it("an unchanged preview proposes nothing and the provider makes one API call, proving its settings; refresh finds nothing changed", async () => {
      await service.resetRequests();
      await test.stack.preview({ expectNoChanges: true, onOutput });
      // The functions the program calls are its own reads; the provider makes none but proving its
      // settings, which for the owner's key also tells whose key it is (a public key is managed
      // only under its own user's).
      expect((await service.allCalls()).filter((call) => !FUNCTION_CALLS.test(call))).toEqual([SETTINGS_PROOF]);
      await service.resetRequests();
      await test.stack.refresh({ expectNoChanges: true, onOutput });
      if (cronPipeline) {
        // The connections are read by id, or, several at once, by listing them.
        expect(await service.calls()).toEqual(
          expect.arrayContaining([
            expect.stringMatching(new RegExp(`^GET /connections(/postgres/${outputs.warehouseId!.value})?$`)),
            `GET /schedules/${pipeline.scheduleId}`,
            `GET /hooks/${pipeline.hookId}`,
            `GET /packages/${pipeline.packageId}`,
          ]),
        );
        expect(await service.writeRequests()).toEqual([]);
      }
    });

    if (SETTINGS_PROOF_LANGUAGES.includes(language)) {
      it("a wrong key and another account's user's key fail the preview with one call, naming the settings; etl:skipCredentialsValidation spares the call", async () => {
        await expectSettingsProvenAtPreview(service, automationStack(test.stack, onOutput), FUNCTION_CALLS, ["GET /user"]);
      });
    }

    it("a new schedule name updates in place and a new key name replaces the key, as the detailed diff says", async () => {
      await setNames("deploy-renamed", "nightly-renamed");
      if (cronPipeline)
        await test.stack.setAllConfig({ "test:connectionName": { value: "warehouse-renamed" }, "test:pipelineCron": { value: PIPELINE_CRON.updated } });
      const [oldKey, oldWarehouse] = [outputs.keyId!.value, outputs.warehouseId!.value];
      events.length = 0;
      await service.resetRequests();
      // The up's own steps carry the detailed diff a preview shows (that a preview of changes
      // writes nothing is test/engine/plugin-lifecycle.test.ts's).
      await up();
      const steps = events.flatMap((event) => (event.resourcePreEvent ? [event.resourcePreEvent.metadata] : []));
      expect(steps.find((step) => step.urn.endsWith("::nightly"))).toMatchObject({ op: "update", detailedDiff: { name: { diffKind: "update" } } });
      expect(steps.find((step) => step.urn.endsWith("::deploy") && step.op === "replace")?.detailedDiff).toEqual({
        name: { diffKind: "update-replace", inputDiff: true },
      });
      expect((await schedule()).name).toBe("nightly-renamed");
      expect(outputs.keyId!.value).not.toBe(oldKey);
      if (cronPipeline) await expectUpdatedInPlace(oldWarehouse);
    });

    /** The connection renamed and the pipeline's schedule moved to the new cron, each in place. */
    async function expectUpdatedInPlace(oldWarehouse: string): Promise<void> {
      expect(outputs.warehouseId!.value).toBe(oldWarehouse);
      const writes = (await service.writeRequests()).map((call) => `${call.method} ${call.path}`);
      expect(writes).toEqual(
        expect.arrayContaining([
          expect.stringMatching(new RegExp(`^PUT .*/connections/postgres/${oldWarehouse}$`)),
          expect.stringMatching(new RegExp(`^PUT .*/schedules/${pipeline.scheduleId}$`)),
        ]),
      );
      expect((await service.api("GET", `/connections/postgres/${oldWarehouse}`)).body).toMatchObject({ name: "warehouse-renamed" });
      expect(pipelineIdsOf(plain(outputs))).toEqual(pipeline);
      // Mondays at 07:30 in New Delhi: the first Monday on or after the anchor day is 2026-01-05.
      await expectScheduleOfCron(service, pipeline, { unit: "weeks", startAt: "2026-01-05T02:00:00.000Z" });
    }

    it("drift made out of band is corrected, and an object deleted out of band is made again", async () => {
      await service.api("PUT", `/schedules/${outputs.scheduleId!.value}`, { name: "changed-by-hand" });
      const oldKey = outputs.keyId!.value;
      expect((await service.api("DELETE", `/user/keys/${oldKey}`)).status).toBeLessThan(300);
      await up({ refresh: true });
      expect((await schedule()).name).toBe("nightly-renamed");
      expect(outputs.keyId!.value).not.toBe(oldKey);
      expect((await service.api("GET", `/user/keys/${outputs.keyId!.value}`)).status).toBe(200);
    });

    it("destroy leaves nothing, and the password and the API key are in no file and no output", async () => {
      await test.stack.destroy({ onOutput });
      const account = (await service.state()).accounts[0];
      const left = [account.publicKeys, account.schedules, account.connections, account.connectionGroups, account.deliveries].map((rows) => rows.length);
      expect(left).toEqual([0, 0, 0, 0, 0]);
      expect(account.hooks).toEqual([]);
      if (cronPipeline) await expectPipelineDestroyed(service, pipeline);
      // The service's delete of a package archives it.
      expect(account.packages.filter((p: { status: string }) => p.status === "active").map((p: { id: number }) => p.id)).toEqual([PACKAGE.id]);
      const written = [...filesUnder(test.workDir).map((file) => readFileSync(file, "latin1")), cliOutput.join("")];
      for (const text of written) {
        expect(text).not.toContain(password);
        expect(text).not.toContain(service.apiKey);
      }
    });
  });
}
