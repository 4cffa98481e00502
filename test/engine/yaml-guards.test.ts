/**
 * The guards against objects doubled, orphaned or changed in silence, from a YAML program on the
 * plugin, as a team without Node.js meets them: two UserSettings under one provider, a cron the
 * service's interval would not keep, an `alertHookId` naming no hook (reported once, with no
 * transport error of the component on top), an explicit provider following an Account's slug
 * (whose settings are not proven at the preview of a slug not yet made), and an Account under the
 * key of a user who cannot see it. Each fails before anything is made or dropped, and the service is counted afterwards.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { RESOURCE_EXAMPLES } from "pulumi-etl/plugin";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCliProject, type CliProject } from "../support/cli";
import { atHostRoot } from "../support/host-root";
import { startTestEmulator, type Emulator } from "../support/service";

const OTHER_KEY = `yaml-guards-other-key-${process.pid}`;
const OTHER_USER = { id: 80, name: "Other User", email: "other@example.com", apiKey: OTHER_KEY };
const CONNECTIONS = [
  { id: 301, name: "warehouse", type: "postgres", attributes: { username: "etl", password: "pw", host: "db.example.com", database: "analytics" } },
  { id: 302, name: "lake", type: "s3", attributes: { username: "AKIAEXAMPLE", password: "secret", region: "eu-west-1" } },
];
const PIPELINE = { name: "orders yaml", flow: RESOURCE_EXAMPLES.Package.dataFlow, variables: { since: "2026-01-01" } };
/** What a failed Pipeline must never add to its child's error. */
const TRANSPORT_ERRORS = /client connection is closing|UNAVAILABLE|grpc:|resource monitor shut down/;

describe("guards from a YAML program on the plugin", { timeout: 300_000 }, () => {
  let service: Emulator;
  let project: CliProject;

  /**
   * The program: YAML is a superset of JSON, so the resources are written as JSON; `$${` keeps the
   * flow's own `${since}` from YAML's interpolation, unless the program's `${…}` are interpolations.
   */
  const program = (resources: Record<string, unknown>, { interpolated = false } = {}) => {
    const text = JSON.stringify({
      name: "etl-yaml-guards",
      runtime: "yaml",
      plugins: { providers: [{ name: "etl", path: "node_modules/pulumi-etl/bin" }] },
      resources,
    });
    writeFileSync(path.join(project.dir, "Pulumi.yaml"), interpolated ? text : text.replaceAll("${", () => "$${"));
  };
  const pulumi = (operation: "preview" | "up" | "destroy") => project.runToEnd(operation === "preview" ? ["preview"] : [operation, "--yes", "--skip-preview"]);
  const counts = async () => {
    const account = (await service.state()).accounts[0] as Record<string, unknown[]>;
    return Object.fromEntries(["packages", "schedules", "hooks"].map((table) => [table, account[table]!.length]));
  };

  beforeAll(async () => {
    service = await startTestEmulator({
      speed: 60,
      account: { connections: CONNECTIONS },
      // A member of the stack's account (its settings work), but not of the account the stack makes.
      users: [OTHER_USER],
      otherAccounts: [{ id: 8, uid: "other-team", users: [OTHER_USER] }],
    });
    project = await createCliProject("yaml-guards", service, {}, { surface: "plugin" });
  });

  afterAll(async () => {
    project?.dispose();
    await service?.emulator.close();
  });

  it("two UserSettings under one provider fail the preview naming both, and the user's settings are left alone", async () => {
    program({ a: { type: "etl:UserSettings", properties: { timeZone: "UTC" } }, b: { type: "etl:UserSettings", properties: { timeZone: "Tokyo" } } });
    await service.resetRequests();
    const preview = await pulumi("preview");
    expect(preview.code).not.toBe(0);
    expect(preview.output).toContain('UserSettings "a"');
    expect(preview.output).toContain('UserSettings "b"');
    expect(preview.output).toContain("take over the same object");
    expect(await service.writeRequests()).toEqual([]);
  });

  it("a Pipeline cron of */45 fails the preview naming the rule and the exact forms, with nothing made", async () => {
    program({ orders: { type: "etl:Pipeline", properties: { ...PIPELINE, schedule: { cron: "*/45 * * * *" }, alertHookId: 1 } } });
    const preview = await pulumi("preview");
    expect(preview.code).not.toBe(0);
    expect(preview.output).toContain('schedule.cron "*/45 * * * *" runs at minutes 0 and 45 of each hour');
    expect(preview.output).toContain("`*/30 * * * *` or `0 * * * *`");
    expect(await counts()).toEqual({ packages: 0, schedules: 0, hooks: 0 });
  });

  it("a Pipeline whose alertHookId names no hook fails up naming it, with no transport error on top and nothing made", async () => {
    program({ orders: { type: "etl:Pipeline", properties: { ...PIPELINE, schedule: { cron: "0 6 * * *" }, alertHookId: 999_999 } } });
    const up = await pulumi("up");
    expect(up.code).not.toBe(0);
    expect(up.output).toContain("alertHookId 999999: no hook with this id in account");
    expect(up.output).not.toMatch(TRANSPORT_ERRORS);
    expect(await counts()).toEqual({ packages: 0, schedules: 0, hooks: 0 });
  });

  it("an explicit provider following an Account's slug: the preview of the account's making and of its renaming pass, since the provider is not configured with a slug not yet made; up makes and renames it", async () => {
    const following = (slug: string) =>
      program(
        {
          followed: { type: "etl:Account", properties: { name: "yaml followed", region: "amazon-web-services::us-east-1", slug } },
          inFollowed: { type: "pulumi:providers:etl", properties: { apiUrl: service.url, apiKey: service.apiKey, accountId: "${followed.slug}" } },
          group: { type: "etl:ConnectionGroup", properties: { name: "followers" }, options: { provider: "${inFollowed}" } },
        },
        { interpolated: true },
      );
    const groupsIn = async (slug: string) =>
      ((await atHostRoot(service, "GET", `/${slug}/api/connection_groups`)).body as Array<{ name: string }>).map((group) => group.name);
    for (const slug of ["yaml-followed", "yaml-followed-renamed"]) {
      following(slug);
      const preview = await pulumi("preview");
      expect(preview.code, preview.output).toBe(0);
      expect((await pulumi("up")).code).toBe(0);
      expect(await groupsIn(slug)).toEqual(["followers"]);
    }
    expect((await pulumi("destroy")).code).toBe(0);
  });

  it("an Account under the key of a user who is not a member: preview and up stop naming both users, and no second account is made", async () => {
    program({ staging: { type: "etl:Account", properties: { name: "yaml staging", region: "amazon-web-services::us-east-1", slug: "yaml-staging" } } });
    expect((await pulumi("up")).code).toBe(0);
    await project.stack.setConfig("etl:apiKey", { value: OTHER_KEY, secret: true });
    for (const operation of ["preview", "up"] as const) {
      const run = await pulumi(operation);
      expect(run.code).not.toBe(0);
      expect(run.output).toMatch(
        /account yaml-staging \(number \d+\) was reached with user 70's API key, but the provider's API key \(etl:apiKey\) is now user 80's/,
      );
      expect(run.output).not.toContain(OTHER_KEY);
    }
    await project.stack.setConfig("etl:apiKey", { value: service.apiKey, secret: true });
    const accountsOf = async (apiKey: string) =>
      ((await atHostRoot(service, "GET", "/accounts", undefined, apiKey)).body as Array<{ account_id: string }>).map((a) => a.account_id).sort();
    expect(await accountsOf(OTHER_KEY)).toEqual([service.accountId, "other-team"].sort());
    expect(await accountsOf(service.apiKey)).toEqual([service.accountId, "yaml-staging"].sort());
    expect((await pulumi("up")).code).toBe(0);
    expect((await pulumi("destroy")).code).toBe(0);
    expect(await accountsOf(service.apiKey)).toEqual([service.accountId]);
  });
});
