/**
 * The policy pack (policy/) run by the real engine on `pulumi preview --policy-pack`: each rule
 * broken fails the preview, naming the resource and the input, before any call to the service;
 * the same resources following the rules pass; rules configured advisory warn and pass, a
 * disabled rule is silent, and each rule's settings are heeded. On both surfaces: the dynamic
 * resources of a TypeScript program and the plugin's `etl:index:<Kind>`, from TypeScript and from a
 * YAML program run by its own language host.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failureOf, newWorkDir, type TestStack } from "../support/engine";
import { createProjectStack } from "../support/language-project";
import { createNamedStack, policyConfigFile, previewWithPack } from "../support/policy";
import { ADMIN_DOMAIN, breaksTheRules, followsTheRules } from "../support/policy-programs";
import { startTestEmulator, type Emulator } from "../support/service";
import { typeOf, type Surface } from "../support/surfaces";

/** The violation each rule reports of the program that breaks them all, by rule. */
const BROKEN: Record<string, RegExp[]> = {
  "etl-hook-https": [/Hook "alerts": settings\.url must be an https URL, got "http:\/\/alerts\.example\.com\/etl"/],
  "etl-cluster-max-nodes": [
    /Cluster "rollups": nodes is 50, more than the 10 allowed \(maxNodes\)/,
    /Schedule "nightly": task\.nodes is 50, more than the 10 allowed/,
    // Once, on the schedule the Pipeline makes, naming the Pipeline's input.
    /Schedule "orders-schedule": task\.nodes is 50, more than the 10 allowed \(maxNodes\)\. Pipeline "orders" gives it as cluster\.nodes\./,
  ],
  "etl-production-failure-alert": [
    /Pipeline "orders": a Pipeline of production stack "prod-eu-\w+" needs a failureAlert/,
    /Schedule "nightly": production stack "prod-eu-\w+" has no active Hook with job\.failed \(or job\) among its events/,
  ],
  "etl-package-flow": [
    /Package "recent-orders": dataFlow is invalid: "recent" uses the variable since, which the package does not define \(rule variables-defined\)/,
  ],
  "etl-admin-email-domain": [/Member "ops-admin": email "eve@elsewhere\.example" of an admin is not at an allowed domain; no domain is allowed yet/],
};
const PLAIN_PASSWORD = /Connection "warehouse": password is given as plain text; give it as a secret/;
const ANY_VIOLATION = /\[(mandatory|advisory)\]/;

describe("The policy pack on the real engine", { timeout: 300_000 }, () => {
  let service: Emulator;
  const stacks: TestStack[] = [];
  const stackOf = async (name: string, program: Parameters<typeof createNamedStack>[1], surface: Surface) => {
    const test = await createNamedStack(`${name}-${surface}`, program, service, surface === "plugin");
    stacks.push(test);
    return test;
  };

  beforeAll(async () => {
    service = await startTestEmulator();
  });
  afterAll(async () => {
    for (const test of stacks) test.dispose();
    await service?.emulator.close();
  });

  for (const surface of ["dynamic", "plugin"] as const) {
    it(`fails a preview on the ${surface} surface on every rule broken, naming resource and input, with no call to the service but the settings' proof`, async () => {
      const test = await stackOf("prod-eu", breaksTheRules(surface), surface);
      await service.resetRequests();
      const failure = await failureOf(previewWithPack(test.stack));
      for (const [rule, messages] of Object.entries(BROKEN)) {
        expect(failure).toContain(rule);
        for (const message of messages) expect(failure).toMatch(message);
      }
      // The program's literal password reaches the pack as a secret: both surfaces mark it
      // (the dynamic class and the plugin's check), so the connection rule has nothing to report.
      expect(failure).toContain(`${typeOf(surface, "Connection")} warehouse create`);
      expect(failure).not.toMatch(PLAIN_PASSWORD);
      // The schedule inside the Pipeline is the Pipeline's to alert on.
      expect(failure).not.toMatch(/Schedule "orders-schedule": production stack/);
      // A Pipeline's finding is reported on its child alone, whatever the component registers.
      expect(failure).not.toMatch(/etl-cluster-max-nodes\s+\(etl:index:Pipeline: orders\)|Pipeline "orders": cluster\.nodes/);
      expect(await service.requests()).toEqual([]);
    });

    it(`passes a preview on the ${surface} surface of the same resources following every rule`, async () => {
      const test = await stackOf("prod-eu", followsTheRules(surface), surface);
      const config = policyConfigFile(test, { "etl-admin-email-domain": { allowedDomains: [ADMIN_DOMAIN] } });
      const result = await previewWithPack(test.stack, config);
      expect(result.stdout).toMatch(/✅ etl-platform@v0\.1\.0/);
      expect(result.stdout).not.toMatch(ANY_VIOLATION);
      expect(result.changeSummary.create).toBeGreaterThanOrEqual(8);
    });
  }

  it("checks a YAML program's stack, run by its own language host, with the same pack", async () => {
    const resources = {
      alerts: { type: "etl:Hook", properties: { type: "web", events: ["job.failed"], settings: { url: "http://alerts.example.com/etl" } } },
      rollups: { type: "etl:Cluster", properties: { nodes: 50 } },
    };
    const { workDir, backend } = newWorkDir("policy-yaml");
    const dir = path.join(workDir, "project");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "Pulumi.yaml"), ["name: etl-policy-yaml", "runtime: yaml", `resources: ${JSON.stringify(resources)}`, ""].join("\n"));
    const test = await createProjectStack("yaml", "etl-policy-yaml", { dir, workDir, backend }, service, {});
    stacks.push(test);
    await service.resetRequests();
    const failure = await failureOf(previewWithPack(test.stack));
    expect(failure).toMatch(/\[mandatory\]\s+etl-hook-https\s+\(etl:index:Hook: alerts\)/);
    expect(failure).toMatch(BROKEN["etl-hook-https"]![0]!);
    expect(failure).toMatch(BROKEN["etl-cluster-max-nodes"]![0]!);
    expect(await service.requests()).toEqual([]);
  });

  it("warns and passes where the rules are advisory, is silent on a disabled rule, and heeds each rule's settings", async () => {
    const test = await stackOf("prod-eu", breaksTheRules("dynamic"), "dynamic");
    const config = policyConfigFile(test, {
      all: "advisory",
      "etl-hook-https": "disabled",
      "etl-cluster-max-nodes": { enforcementLevel: "advisory", maxNodes: 60 },
      "etl-production-failure-alert": { enforcementLevel: "advisory", productionStackPattern: "^live-" },
      "etl-admin-email-domain": { enforcementLevel: "advisory", allowedDomains: ["corp.example", "ops.example"] },
    });
    const { stdout } = await previewWithPack(test.stack, config);
    expect(stdout).toMatch(/\[advisory\]\s+etl-package-flow/);
    expect(stdout).toMatch(BROKEN["etl-package-flow"]![0]!);
    expect(stdout).toMatch(
      /Member "ops-admin": email "eve@elsewhere\.example" of an admin is not at an allowed domain; allowed domains: corp\.example, ops\.example/,
    );
    expect(stdout).not.toMatch(/\[mandatory\]/);
    for (const silent of ["etl-hook-https", "etl-cluster-max-nodes", "etl-production-failure-alert"]) expect(stdout).not.toContain(silent);
  });
});
