/**
 * `etl-recover` on a YAML program through the plugin whose objects live in a second account: the
 * stack makes an `Account` and points an explicit provider at its slug (the provider's settings
 * come from the account's outputs), and the objects inside are created through that provider.
 * A deployment killed mid-create is recovered from that account, not the stack's own: the next
 * `up` makes nothing twice and leaves nothing out. A rename of the account out of band makes its
 * objects' refresh fail naming the rename, and the provider follows the new slug after `up`. A
 * deployment killed mid-update leaves a lock that `etl-recover` removes.
 */
import { readdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCliProject, eventually, runEtlRecover, type CliProject } from "../support/cli";
import { startTestEmulator, type Emulator } from "../support/service";

/** The account's slug is the service's, made from its name: a rename out of band is left to stand. */
const ACCOUNT_NAME = "recovery staging";
const KINDS = ["connectionGroups", "clusters", "hooks"] as const;

/** The program: the account and its provider, and, once `inside` is set, three objects made in it. */
function program(project: string, inside: { hookName: string } | undefined): string {
  const inStaging = "    options:\n      provider: ${in-staging}";
  const objects =
    inside === undefined
      ? ""
      : `
  group:
    type: etl:ConnectionGroup
    properties:
      name: recovered-group
${inStaging}
  pool:
    type: etl:Cluster
    properties:
      name: recovered-pool
      nodes: 1
${inStaging}
  alerts:
    type: etl:Hook
    properties:
      type: web
      name: ${inside.hookName}
      events: [job.failed]
      settings:
        url: https://alerts.example.com/etl
${inStaging}`;
  return `name: ${project}
runtime: yaml
plugins:
  providers:
    - name: etl
      path: node_modules/pulumi-etl/bin
config:
  serviceUrl:
    type: string
  serviceKey:
    type: string
    secret: true
resources:
  staging:
    type: etl:Account
    properties:
      name: ${ACCOUNT_NAME}
      region: amazon-web-services::us-east-1
  in-staging:
    type: pulumi:providers:etl
    properties:
      apiUrl: \${serviceUrl}
      apiKey: \${serviceKey}
      accountId: \${staging.slug}${objects}
`;
}

describe("etl-recover across the accounts of a stack's providers (plugin, YAML)", { timeout: 300_000 }, () => {
  let service: Emulator;
  let project: CliProject;
  /** Where the stack's account is now. */
  let slug: string;
  const projectName = "etl-recover-accounts";
  const write = (inside?: { hookName: string }) => writeFileSync(path.join(project.dir, "Pulumi.yaml"), program(projectName, inside));

  /** The rows of each kind in an account of the service, by its slug. */
  const rowsIn = async (uid: string) => {
    const account = ((await service.state()) as { accounts: Array<Record<string, any>> }).accounts.find((a) => a.uid === uid);
    return Object.fromEntries(KINDS.map((kind) => [kind, (account?.[kind] ?? []) as Array<{ id: number; name?: string; status?: string }>]));
  };
  const deployment = async () =>
    (await project.stack.exportStack()).deployment as { resources?: Array<{ type: string; id?: string }>; pending_operations?: Array<{ type: string }> };
  const lockFiles = () => {
    const root = path.join(new URL(project.env.PULUMI_BACKEND_URL!).pathname, ".pulumi", "locks");
    const list = (dir: string): string[] => {
      try {
        return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
          entry.isDirectory() ? list(path.join(dir, entry.name)) : entry.name.endsWith(".json") ? [entry.name] : [],
        );
      } catch {
        return [];
      }
    };
    return list(root);
  };
  const recover = (args: string[] = []) => runEtlRecover(project, args);
  /** Starts `pulumi up` with every answer to `method` held back, and kills it once `applied` holds. */
  const killMidway = async (method: string, applied: () => Promise<boolean>) => {
    await service.faults({ rate: 1, kinds: ["hold_after"], methods: [method], holdMs: 15_000 });
    const cli = project.run(["up", "--yes", "--skip-preview", "--parallel", "8"]);
    await eventually(`the ${method}s applied`, async () => ((await applied()) ? true : undefined), 120_000);
    cli.child.kill("SIGKILL");
    await cli.exited;
    await service.faults();
  };

  beforeAll(async () => {
    service = await startTestEmulator({ speed: 20 });
    project = await createCliProject("recover-accounts", service, {}, { surface: "plugin" });
    await project.stack.setAllConfig({
      [`${projectName}:serviceUrl`]: { value: service.url },
      [`${projectName}:serviceKey`]: { value: service.apiKey, secret: true },
    });
    write();
    const up = await project.runToEnd(["up", "--yes", "--skip-preview"]);
    expect(up.code, up.output).toBe(0);
    slug = ((await service.state()) as { accounts: Array<{ uid: string }> }).accounts.find((a) => a.uid !== service.accountId)!.uid;
  });

  afterAll(async () => {
    project?.dispose();
    await service?.emulator.close();
  });

  it("a kill while the objects inside the stack's own account are created leaves them there, with a pending create each", async () => {
    write({ hookName: "recovered alerts" });
    await killMidway("POST", async () => Object.values(await rowsIn(slug)).every((rows) => rows.length === 1));
    expect((await deployment()).pending_operations?.filter((op) => op.type === "creating")).toHaveLength(3);
  });

  it("etl-recover finds each object in the account its provider names, and up then makes nothing twice and leaves nothing out", async () => {
    const recovered = await recover();
    expect(recovered.code, recovered.output).toBe(0);
    for (const [name, kind] of [
      ["group", "ConnectionGroup"],
      ["pool", "Cluster"],
      ["alerts", "Hook"],
    ])
      expect(recovered.output).toMatch(new RegExp(`::${name} → ${kind} \\d+ \\(found by .* in account ${slug}\\)`));
    expect(recovered.output).toContain("state updated: 3 adopted, 0 cleared, 0 left pending");
    expect(recovered.output).not.toContain(service.apiKey);
    const up = await project.runToEnd(["up", "--yes", "--skip-preview"]);
    expect(up.code, up.output).toBe(0);
    const held = await rowsIn(slug);
    const alive = (rows: Array<{ status?: string }>) => rows.filter((row) => !["terminated", "terminating"].includes(String(row.status)));
    // 0 duplicates: one object of each kind in the account; 0 orphans: each is the state's.
    expect(KINDS.map((kind) => alive(held[kind]!).length)).toEqual([1, 1, 1]);
    const ids = ((await deployment()).resources ?? []).filter((r) => r.type.startsWith("etl:index:") && r.type !== "etl:index:Account").map((r) => r.id);
    expect(ids.sort()).toEqual(KINDS.map((kind) => String(held[kind]![0]!.id)).sort());
    // Nothing was made in the stack's own account.
    const own = await rowsIn(service.accountId);
    expect(KINDS.map((kind) => alive(own[kind]!).length)).toEqual([0, 0, 0]);
  });

  it("an account renamed out of band: its objects' refresh fails naming the rename, and after up the provider follows the new slug", async () => {
    const moved = `${slug}-moved`;
    const renamed = await fetch(`${service.url}/accounts/${slug}`, {
      method: "PUT",
      headers: {
        accept: "application/vnd.service+json; version=2",
        "content-type": "application/json",
        authorization: `Basic ${Buffer.from(`${service.apiKey}:`).toString("base64")}`,
      },
      body: JSON.stringify({ account_id: moved }),
    });
    expect(renamed.status).toBe(200);
    const refresh = await project.runToEnd(["refresh", "--yes", "--skip-preview"]);
    expect(refresh.code).not.toBe(0);
    expect(refresh.output).toContain(`account "${slug}" at ${service.url} is not one the API key's user can reach (404 Not Found)`);
    expect(refresh.output).toContain("If the account was renamed, point etl:accountId at its new slug");
    expect(refresh.output).not.toContain(service.apiKey);
    // Nothing left the state; the account itself was read at its new slug.
    const resources = (await deployment()).resources ?? [];
    expect(resources.filter((r) => r.type.startsWith("etl:index:"))).toHaveLength(4);
    expect(JSON.stringify(resources)).toContain(`"slug":"${moved}"`);
    // The program passes the account's new slug to the provider, whose objects follow it.
    const up = await project.runToEnd(["up", "--yes", "--skip-preview"]);
    expect(up.code, up.output).toBe(0);
    slug = moved;
    await service.resetRequests();
    const again = await project.runToEnd(["refresh", "--yes", "--skip-preview"]);
    expect(again.code, again.output).toBe(0);
    const paths = (await service.requests()).map((r) => r.path);
    expect(paths.filter((p) => p.includes("/api/")).every((p) => p.startsWith(`/${moved}/api/`))).toBe(true);
    expect(paths.some((p) => p.startsWith(`/${moved}/api/hooks`))).toBe(true);
  });

  it("a kill while an object is updated leaves the lock, which etl-recover removes, saying so; the next up goes on", async () => {
    write({ hookName: "renamed alerts" });
    await killMidway("PUT", async () => (await rowsIn(slug)).hooks!.some((hook) => hook.name === "renamed alerts"));
    expect(lockFiles()).toHaveLength(1);
    const recovered = await recover();
    expect(recovered.code, recovered.output).toBe(0);
    expect(recovered.output).toContain("left its lock while it ran 1 operations (an update of alerts)");
    expect(recovered.output).toContain("lock removed (pulumi cancel)");
    expect(lockFiles()).toEqual([]);
    const up = await project.runToEnd(["up", "--yes", "--skip-preview"]);
    expect(up.code, up.output).toBe(0);
    const nothing = await recover();
    expect(nothing.output).toContain("nothing to recover");
  });

  it("destroy removes the objects and the account", async () => {
    const destroyed = await project.runToEnd(["destroy", "--yes", "--skip-preview"]);
    expect(destroyed.code, destroyed.output).toBe(0);
    const accounts = ((await service.state()) as { accounts: Array<{ uid: string }> }).accounts.map((a) => a.uid);
    expect(accounts).toEqual([service.accountId]);
  });
});
