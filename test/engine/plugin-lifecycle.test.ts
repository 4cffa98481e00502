/**
 * The plugin, `pulumi-resource-etl`, through the real engine: a PublicKey, a Connection with a
 * secret password, a Schedule and a JobRun through a whole lifecycle (up; an unchanged preview
 * with no API call; refresh with no change; an update in place and a replace, each so in the
 * detailed diff; drift corrected; an object deleted out of band and made again; functions;
 * destroy leaving nothing), the job's progress on its own row, and the password and the API key
 * in no file and no output.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as pulumi from "@pulumi/pulumi";
import type { EngineEvent, OutputMap } from "@pulumi/pulumi/automation";
import { createTestStack, type TestStack } from "../support/engine";
import { pluginResource } from "../support/plugin";
import { SETTINGS_PROOF_CALL, startTestEmulator, type Emulator } from "../support/service";
import { filesUnder } from "../support/soak";
import { ed25519PublicKeyLine } from "../support/keys";
import { READY_CLUSTER_STATUSES } from "../../contract/vocabularies";

const PASSWORD = "plugin-SECRET-pw-4669";
const PACKAGE = { id: 101, name: "orders-rollup", run: { seconds: 20, outputs: [{ name: "out", records: 10 }] } };
const CLUSTER = { id: 201, name: "ready", nodes: 4 };

describe("the plugin on the real engine", { timeout: 300_000 }, () => {
  let service: Emulator;
  let test: TestStack;
  let outputs: OutputMap;
  const cliOutput: string[] = [];
  const events: EngineEvent[] = [];
  const onOutput = (text: string) => cliOutput.push(text);
  const onEvent = (event: EngineEvent) => events.push(event);
  const key = ed25519PublicKeyLine("plugin@example.com");
  let keyName = "deploy";
  let scheduleName = "nightly";

  const up = async (options: { refresh?: boolean } = {}) => (outputs = (await test.stack.up({ onOutput, onEvent, ...options })).outputs);
  const stateTypes = async () => ((await test.stack.exportStack()).deployment.resources ?? []).map((r: { type: string }) => r.type);
  const everythingWritten = () => [...filesUnder(test.workDir).map((file) => readFileSync(file, "latin1")), cliOutput.join("")];

  beforeAll(async () => {
    service = await startTestEmulator({ speed: 20, account: { packages: [PACKAGE], clusters: [CLUSTER] } });
    test = await createTestStack(
      "plugin-lifecycle",
      async () => {
        const deployKey = pluginResource("PublicKey", "deploy", { publicKey: key.line, name: keyName });
        const warehouse = pluginResource("Connection", "warehouse", {
          type: "postgres",
          name: "warehouse",
          host: "warehouse.db.example.com",
          username: "etl",
          password: pulumi.secret(PASSWORD),
          database: "analytics",
        });
        const nightly = pluginResource("Schedule", "nightly", {
          name: scheduleName,
          interval: { amount: 1, unit: "days" },
          task: { nodes: 2, packages: [{ packageId: "101" }] },
        });
        const run = pluginResource("JobRun", "backfill", { clusterId: 201, packageId: 101 });
        const compute = pluginResource("Cluster", "compute", { nodes: 1, name: "plugin-compute" });
        const found = await pulumi.runtime.invoke("etl:index:getPackage", { packageId: 101 });
        const regions = await pulumi.runtime.invoke("etl:index:getRegions", { type: "s3" });
        return {
          keyId: deployKey.id,
          fingerprint: deployKey.fingerprint,
          warehouseId: warehouse.id,
          password: warehouse.password,
          scheduleId: nightly.id,
          scheduleName: nightly.name,
          jobId: run.id,
          jobStatus: run.status,
          clusterStatus: compute.status,
          packageName: found.name,
          regionCount: (found && regions.items.length) as number,
        };
      },
      service,
      {},
      { plugin: true },
    );
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("up creates each object through the plugin, under the etl:index type tokens", async () => {
    await up();
    expect(outputs.fingerprint!.value).toBe(key.fingerprint);
    expect(outputs.jobStatus!.value).toBe("completed");
    expect(READY_CLUSTER_STATUSES).toContain(outputs.clusterStatus!.value);
    expect(outputs.packageName!.value).toBe("orders-rollup");
    expect(outputs.regionCount!.value).toBeGreaterThan(0);
    expect(outputs.password!.secret).toBe(true);
    expect((await service.api("GET", `/schedules/${outputs.scheduleId!.value}`)).body).toMatchObject({ name: "nightly" });
    expect(await stateTypes()).toEqual(
      expect.arrayContaining(["etl:index:PublicKey", "etl:index:Connection", "etl:index:Schedule", "etl:index:JobRun", "pulumi:providers:etl"]),
    );
    expect((await stateTypes()).filter((type: string) => type.startsWith("pulumi-nodejs:dynamic"))).toEqual([]);
  });

  it("the job's and the cluster's progress is a passing status on their own rows, and nothing on the stack's", () => {
    const diagnostics = events.flatMap((event) => (event.diagnosticEvent ? [event.diagnosticEvent] : []));
    const onJob = diagnostics.filter((d) => d.urn?.endsWith("etl:index:JobRun::backfill"));
    expect(onJob.some((d) => d.ephemeral && /job \d+ (queued|running)/.test(d.message))).toBe(true);
    const onCluster = diagnostics.filter((d) => d.urn?.endsWith("etl:index:Cluster::compute"));
    expect(onCluster.some((d) => d.ephemeral && /^creating: cluster \d+ (pending|creating)/.test(d.message))).toBe(true);
    const onStack = diagnostics.filter((d) => d.urn?.includes("pulumi:pulumi:Stack") && /job \d+|cluster \d+/.test(d.message));
    expect(onStack).toEqual([]);
  });

  it("an unchanged preview proposes nothing and makes no API call but the settings' proof; refresh finds nothing changed", async () => {
    await service.resetRequests();
    const preview = await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(preview.changeSummary).toEqual({ same: 6 });
    // The functions the program calls are its own reads; the resources make none but the proof of
    // the settings, which for the owner's key also tells whose it is (a key is managed only under its own user's).
    expect((await service.allCalls()).filter((call) => !/\/packages\/101|\/regions/.test(call))).toEqual([SETTINGS_PROOF_CALL]);
    await test.stack.refresh({ expectNoChanges: true, onOutput });
  });

  it("the detailed diff names what updates in place and what replaces", async () => {
    scheduleName = "nightly-renamed";
    keyName = "deploy-renamed";
    events.length = 0;
    await service.resetRequests();
    await test.stack.preview({ diff: true, onOutput, onEvent });
    expect(await service.writeRequests()).toEqual([]);
    const steps = events.flatMap((event) => (event.resourcePreEvent ? [event.resourcePreEvent.metadata] : []));
    const schedule = steps.find((step) => step.urn.endsWith("::nightly"));
    const deployKey = steps.find((step) => step.urn.endsWith("::deploy") && step.op === "replace");
    expect(schedule).toMatchObject({ op: "update", detailedDiff: { name: { diffKind: "update", inputDiff: true } } });
    expect(deployKey?.op).toMatch(/replace/);
    expect(deployKey?.detailedDiff).toEqual({ name: { diffKind: "update-replace", inputDiff: true } });
    await up();
    expect((await service.api("GET", `/schedules/${outputs.scheduleId!.value}`)).body.name).toBe("nightly-renamed");
  });

  it("drift made out of band is corrected, and an object deleted out of band is made again", async () => {
    await service.api("PUT", `/schedules/${outputs.scheduleId!.value}`, { name: "changed-by-hand" });
    const oldKey = outputs.keyId!.value;
    expect((await service.api("DELETE", `/user/keys/${oldKey}`)).status).toBeLessThan(300);
    await up({ refresh: true });
    expect((await service.api("GET", `/schedules/${outputs.scheduleId!.value}`)).body.name).toBe("nightly-renamed");
    expect(outputs.keyId!.value).not.toBe(oldKey);
    expect((await service.api("GET", `/user/keys/${outputs.keyId!.value}`)).status).toBe(200);
  });

  it("destroy leaves nothing, and the password and the API key are in no file and no output", async () => {
    // The stack's key is kept where the engine keeps provider settings, and only encrypted.
    const checkpoint = filesUnder(test.workDir).find((file) => file.endsWith(`${path.sep}test.json`) && file.includes(`${path.sep}stacks${path.sep}`))!;
    const stored = JSON.parse(readFileSync(checkpoint, "utf8")).checkpoint.latest.resources;
    const provider = stored.find((r: { type: string }) => r.type === "pulumi:providers:etl");
    expect(provider.inputs.apiKey).toEqual({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: expect.any(String) });
    await test.stack.destroy({ onOutput });
    const account = (await service.state()).accounts[0];
    expect([account.publicKeys.length, account.schedules.length, account.connections.length]).toEqual([0, 0, 0]);
    expect(account.clusters.find((c: { name: string }) => c.name === "plugin-compute")?.status).toBe("terminated");
    for (const text of everythingWritten()) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(service.apiKey);
    }
  });
});
