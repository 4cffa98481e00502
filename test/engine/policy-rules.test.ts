/**
 * The pack's rules on inputs the engine's previews here never carry: a connection's secret
 * attribute in plain text (both surfaces mark it secret before the pack sees it), a Pipeline
 * whose own inputs reach the pack (a component that registers them) beside its children, and the alerts of a
 * production stack in each form either surface gives them. The inputs go through @pulumi/policy's
 * own reading of the engine's message, as in a run.
 */
import * as pulumi from "@pulumi/pulumi";
import type { PolicyResource, ResourceValidationArgs, ResourceValidationPolicy, StackValidationArgs, StackValidationPolicy } from "@pulumi/policy";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { describe, expect, it } from "vitest";
import { clusterNodes } from "../../policy/rules/cluster-nodes";
import { connectionSecrets } from "../../policy/rules/connection-secrets";
import { hookHttps } from "../../policy/rules/hook-https";
import { productionAlert } from "../../policy/rules/production-alert";

const deserialize: { deserializeProperties(struct: Struct, proxySecrets: boolean): Record<string, unknown> } = require("@pulumi/policy/deserialize");
const proxy: { unknownCheckingProxy<T>(value: T): T } = require("@pulumi/policy/proxy");

/** A value the engine does not know before `up` (a hook's id still to be made). */
const UNKNOWN = pulumi.runtime.unknownValue;

const secret = (value: unknown) => ({ [pulumi.runtime.specialSigKey]: pulumi.runtime.specialSecretSig, value });

/** What a rule reports of a resource whose inputs arrive as `wire`, with the rule's defaults for settings. */
function reports(
  rule: ResourceValidationPolicy,
  type: string,
  name: string,
  wire: Record<string, unknown>,
  config: Record<string, unknown> = {},
  parent?: string,
): string[] {
  const props = deserialize.deserializeProperties(Struct.fromJavaScript(wire as never), false);
  const args = {
    type,
    name,
    props,
    urn: `urn:pulumi:prod::etl::${type}::${name}`,
    opts: { parent },
    getConfig: () => config,
  } as unknown as ResourceValidationArgs;
  const seen: string[] = [];
  void (rule.validateResource as (a: ResourceValidationArgs, r: (m: string) => void) => void)(args, (message) => seen.push(message));
  return seen;
}

interface Declared {
  type: string;
  name: string;
  props?: Record<string, unknown>;
  parent?: string;
}

/** What a stack rule reports of these resources of stack `stack`, each read as the pack reads a preview's. */
function stackReports(rule: StackValidationPolicy, declared: Declared[], stack = "prod-eu"): string[] {
  const byName = new Map<string, PolicyResource>();
  for (const { type, name, props = {}, parent } of declared) {
    const read = proxy.unknownCheckingProxy(deserialize.deserializeProperties(Struct.fromJavaScript(props as never), false));
    byName.set(name, { type, name, props: read, urn: `urn:pulumi:${stack}::etl::${type}::${name}`, parent: parent && byName.get(parent) } as PolicyResource);
  }
  const args = { resources: [...byName.values()], getConfig: () => ({ productionStackPattern: "prod" }) } as unknown as StackValidationArgs;
  const seen: string[] = [];
  void (rule.validateStack as (a: StackValidationArgs, r: (m: string) => void) => void)(args, (message) => seen.push(message));
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

  it("refuses a hook URL that names no host after https://, on a Hook and on the one a Pipeline makes of its failure alert", () => {
    for (const type of ["etl:index:Hook", "pulumi-nodejs:dynamic/etl:Hook"]) {
      expect(reports(hookHttps, type, "alerts", { type: "web", settings: { url: "https:///x" } })).toEqual([
        'Hook "alerts": settings.url must name a host after https://, got "https:///x".',
      ]);
      expect(reports(hookHttps, type, "alerts", { type: "slack", settings: { url: "HTTPS:/hooks.example.com" } })).toEqual([
        'Hook "alerts": settings.url must name a host after https://, got "HTTPS:/hooks.example.com".',
      ]);
      expect(reports(hookHttps, type, "alerts", { type: "web", settings: { url: "https://x/etl" } })).toEqual([]);
    }
    const alert = { type: "web", events: ["job.failed"], settings: { url: "https:///alerts" } };
    expect(reports(hookHttps, "etl:index:Hook", "orders-alert", alert, {}, "urn:pulumi:prod::etl::etl:index:Pipeline::orders")).toEqual([
      'Hook "orders-alert": settings.url must name a host after https://, got "https:///alerts". Pipeline "orders" gives it as failureAlert.settings.url.',
    ]);
  });

  it("reports a Pipeline's cluster size and alert URL once, on the child made of them and naming the Pipeline's input, when the component registers its inputs too", () => {
    const pipeline = { schedule: {}, cluster: { nodes: 30 }, failureAlert: { type: "web", settings: { url: "http://alerts.example.com" } } };
    const ORDERS = "urn:pulumi:prod::etl::etl:index:Pipeline::orders";
    const schedule = { task: { nodes: 30, packages: [{ packageId: UNKNOWN }] } };
    const hook = { type: "web", events: ["job.failed"], settings: { url: "http://alerts.example.com" } };
    for (const surface of ["etl:index:", "pulumi-nodejs:dynamic/etl:"]) {
      expect([
        ...reports(clusterNodes, "etl:index:Pipeline", "orders", pipeline, { maxNodes: 10 }),
        ...reports(clusterNodes, `${surface}Schedule`, "orders-schedule", schedule, { maxNodes: 10 }, ORDERS),
      ]).toEqual(['Schedule "orders-schedule": task.nodes is 30, more than the 10 allowed (maxNodes). Pipeline "orders" gives it as cluster.nodes.']);
      expect([
        ...reports(hookHttps, "etl:index:Pipeline", "orders", pipeline),
        ...reports(hookHttps, `${surface}Hook`, "orders-alert", hook, {}, ORDERS),
      ]).toEqual([
        'Hook "orders-alert": settings.url must be an https URL, got "http://alerts.example.com". Pipeline "orders" gives it as failureAlert.settings.url.',
      ]);
    }
    // A program's own hook under a Pipeline is not the Pipeline's alert: its finding names its own input alone.
    expect(reports(hookHttps, "etl:index:Hook", "extra", hook, {}, ORDERS)).toEqual([
      'Hook "extra": settings.url must be an https URL, got "http://alerts.example.com".',
    ]);
    expect(
      reports(
        clusterNodes,
        "etl:index:Schedule",
        "small-schedule",
        { task: { nodes: 4 } },
        { maxNodes: 10 },
        "urn:pulumi:prod::etl::etl:index:Pipeline::small",
      ),
    ).toEqual([]);
  });

  describe("a production stack's alerts", () => {
    const SCHEDULE = { type: "etl:index:Schedule", name: "nightly", props: { task: { packages: [{ packageId: 101 }] } } };
    const hook = (props: Record<string, unknown>, surface = "etl:index:Hook", name = "alerts", parent?: string): Declared => ({
      type: surface,
      name,
      props: { type: "web", settings: { url: "https://alerts.example.com" }, ...props },
      parent,
    });
    const NO_HOOK = 'Schedule "nightly": production stack "prod-eu" has no active Hook with job.failed (or job) among its events to alert on a failed run.';
    const NO_ALERT =
      'Pipeline "orders": a Pipeline of production stack "prod-eu" needs a failureAlert told of job.failed (or job), not inactive, or an alertHookId.';

    it("count a Schedule's hook only when it is active and told of failed jobs", () => {
      expect(stackReports(productionAlert, [SCHEDULE, hook({ events: ["job.failed"] })])).toEqual([]);
      expect(stackReports(productionAlert, [SCHEDULE, hook({ events: ["job"], active: true }, "pulumi-nodejs:dynamic/etl:Hook")])).toEqual([]);
      expect(stackReports(productionAlert, [SCHEDULE, hook({ events: ["job.failed"], active: false })])).toEqual([NO_HOOK]);
      expect(stackReports(productionAlert, [SCHEDULE, hook({ events: ["job.completed"] })])).toEqual([NO_HOOK]);
      expect(stackReports(productionAlert, [SCHEDULE, hook({ events: ["job.failed"], active: false })], "staging")).toEqual([]);
    });

    it("count a Pipeline's alert by the hook it declares, on either surface", () => {
      const plugin = (failureAlert: Record<string, unknown>, child: Record<string, unknown>) => [
        { type: "etl:index:Pipeline", name: "orders", props: { name: "orders", schedule: {}, failureAlert, hookId: UNKNOWN } },
        hook(child, "etl:index:Hook", "orders-alert", "orders"),
      ];
      // The dynamic component registers its outputs only: the hook it declares says what it is told of.
      const dynamic = (child: Record<string, unknown>) => [
        { type: "etl:index:Pipeline", name: "orders", props: { hookId: UNKNOWN } },
        hook(child, "pulumi-nodejs:dynamic/etl:Hook", "orders-alert", "orders"),
      ];
      expect(stackReports(productionAlert, plugin({ type: "web" }, { events: ["job.failed"] }))).toEqual([]);
      expect(stackReports(productionAlert, plugin({ type: "web", events: ["job.completed"] }, { events: ["job.completed"] }))).toEqual([NO_ALERT]);
      expect(stackReports(productionAlert, plugin({ type: "web", active: false }, { events: ["job.failed"], active: false }))).toEqual([NO_ALERT]);
      expect(stackReports(productionAlert, dynamic({ events: ["job.failed"] }))).toEqual([]);
      expect(stackReports(productionAlert, dynamic({ events: ["job.completed"] }))).toEqual([NO_ALERT]);
      expect(stackReports(productionAlert, dynamic({ events: ["job.failed"], active: false }))).toEqual([NO_ALERT]);
    });

    it("count a Pipeline's own failureAlert by its events and whether it is active, an alertHookId always", () => {
      const pipeline = (props: Record<string, unknown>) => [{ type: "etl:index:Pipeline", name: "orders", props: { name: "orders", schedule: {}, ...props } }];
      expect(stackReports(productionAlert, pipeline({ failureAlert: { type: "web" } }))).toEqual([]);
      expect(stackReports(productionAlert, pipeline({ failureAlert: { type: "web", events: ["cluster", "job"] } }))).toEqual([]);
      expect(stackReports(productionAlert, pipeline({ failureAlert: { type: "web", events: ["job.completed"] } }))).toEqual([NO_ALERT]);
      expect(stackReports(productionAlert, pipeline({ failureAlert: { type: "web", active: false } }))).toEqual([NO_ALERT]);
      // Not known before `up`: given the benefit of the doubt, as any value still to be made.
      expect(stackReports(productionAlert, pipeline({ failureAlert: { type: "web", events: UNKNOWN } }))).toEqual([]);
      expect(stackReports(productionAlert, pipeline({ alertHookId: 999999 }))).toEqual([]);
      expect(stackReports(productionAlert, [{ type: "etl:index:Pipeline", name: "orders", props: { hookId: "999999" } }])).toEqual([]);
      expect(stackReports(productionAlert, pipeline({}))).toEqual([NO_ALERT]);
    });
  });
});
