/**
 * The pack's rules on inputs the engine's previews here never carry: a connection's secret
 * attribute in plain text (both surfaces mark it secret before the pack sees it) and a Pipeline
 * whose own inputs reach the pack (a component that registers them). The inputs go through
 * @pulumi/policy's own reading of the engine's message, as in a run.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ResourceValidationArgs, ResourceValidationPolicy } from "@pulumi/policy";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { describe, expect, it } from "vitest";
import { clusterNodes } from "../../policy/rules/cluster-nodes";
import { connectionSecrets } from "../../policy/rules/connection-secrets";
import { hookHttps } from "../../policy/rules/hook-https";

const deserialize: { deserializeProperties(struct: Struct, proxySecrets: boolean): Record<string, unknown> } = require("@pulumi/policy/deserialize");

const secret = (value: unknown) => ({ [pulumi.runtime.specialSigKey]: pulumi.runtime.specialSecretSig, value });

/** What a rule reports of a resource whose inputs arrive as `wire`, with the rule's defaults for settings. */
function reports(rule: ResourceValidationPolicy, type: string, name: string, wire: Record<string, unknown>, config: Record<string, unknown> = {}): string[] {
  const props = deserialize.deserializeProperties(Struct.fromJavaScript(wire as never), false);
  const args = { type, name, props, urn: `urn:pulumi:prod::etl::${type}::${name}`, getConfig: () => config } as unknown as ResourceValidationArgs;
  const seen: string[] = [];
  void (rule.validateResource as (a: ResourceValidationArgs, r: (m: string) => void) => void)(args, (message) => seen.push(message));
  return seen;
}

const CONNECTION = { type: "postgres", name: "warehouse", host: "db.example.com", database: "analytics", username: "etl_loader" };

describe("the policy pack's rules on inputs as the engine sends them", () => {
  it("reports a connection's secret attribute sent in plain text, on either surface's type, and not one sent as a secret", () => {
    for (const type of ["etl:index:Connection", "pulumi-nodejs:dynamic/etl:Connection"]) {
      expect(reports(connectionSecrets, type, "warehouse", { ...CONNECTION, password: "hunter2" })).toEqual([
        'Connection "warehouse": password is given as plain text; give it as a secret (pulumi.secret, or config set --secret).',
      ]);
      expect(reports(connectionSecrets, type, "warehouse", { ...CONNECTION, password: secret("hunter2") })).toEqual([]);
    }
    expect(reports(connectionSecrets, "etl:index:Connection", "app", { type: "salesforce", name: "crm", refreshToken: "t0ken" })).toEqual([
      'Connection "app": refreshToken is given as plain text; give it as a secret (pulumi.secret, or config set --secret).',
    ]);
  });

  it("reads a Pipeline's own cluster size and alert URL when the component registers its inputs", () => {
    const pipeline = { schedule: {}, cluster: { nodes: 30 }, failureAlert: { type: "web", settings: { url: "http://alerts.example.com" } } };
    expect(reports(clusterNodes, "etl:index:Pipeline", "orders", pipeline, { maxNodes: 10 })).toEqual([
      'Pipeline "orders": cluster.nodes is 30, more than the 10 allowed (maxNodes).',
    ]);
    expect(reports(hookHttps, "etl:index:Pipeline", "orders", pipeline)).toEqual([
      'Pipeline "orders": failureAlert.settings.url must be an https URL, got "http://alerts.example.com".',
    ]);
    expect(reports(clusterNodes, "etl:index:Pipeline", "small", { schedule: {} }, { maxNodes: 10 })).toEqual([]);
  });
});
