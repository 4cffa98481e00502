/**
 * Account through the real engine on the plugin: made with its creator as owner and an API
 * path of its own, an unchanged preview and refresh, a change and a rename in place, a rename
 * made out of band found again by its number; under the key of a user who is not a member,
 * refresh, preview, up and destroy stopping with what to do while the account stays in the state
 * and on the service; and destroy deleting it with everything in it, by its new slug when it was
 * renamed out of band. A region that is not a region id is a check's refusal: its rule is in
 * rules.test.ts and among the kind's bad inputs (entry.ts), which go through both surfaces' check,
 * and a check's refusal failing the preview before any call, for every kind, is in
 * test/engine/bad-input-*.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutputMap } from "@pulumi/pulumi/automation";
import { createTestStack, failureOf, type TestStack } from "../../support/engine";
import { atHostRoot } from "../../support/host-root";
import { startTestEmulator, TEST_ACCOUNT, type Emulator } from "../../support/service";
import { declare, type Surface } from "../../support/surfaces";

// One surface, the plugin; what each surface adds is proven for every kind on both in test/engine (docs/development.md).
const surface: Surface = "plugin";

describe("Account on the real engine (plugin)", { timeout: 300_000 }, () => {
  let service: Emulator;
  let test: TestStack;
  let outputs: OutputMap;
  let args: Record<string, unknown> = { name: "analytics staging", region: "amazon-web-services::us-east-1", slug: `staging-${surface}`, location: "Lisbon" };
  const onOutput = () => undefined;
  const up = async (refresh = false) => (outputs = (await test.stack.up({ onOutput, refresh })).outputs);
  const account = async (slug: string) => atHostRoot(service, "GET", `/accounts/${slug}`);
  const OTHER_KEY = `other-user-key-${surface}-${process.pid}`;
  const otherUser = { id: 80, name: "Other User", email: "other@example.com", apiKey: OTHER_KEY };
  /** The slugs of every account the service holds for a user: what a second account made by mistake would show. */
  const accountsOf = async (apiKey: string) =>
    ((await atHostRoot(service, "GET", "/accounts", undefined, apiKey)).body as Array<{ account_id: string }>).map((a) => a.account_id).sort();

  beforeAll(async () => {
    service = await startTestEmulator({
      // A member of the stack's account (the settings work), but not of the account the stack makes.
      users: [otherUser],
      otherAccounts: [{ id: 8, uid: "elsewhere-team", users: [otherUser] }],
    });
    test = await createTestStack(
      `account-${surface}`,
      async () => {
        const made = declare(surface, "Account", "staging", args);
        return { id: made.id, slug: made.slug, number: made.number, name: made.name, isOwner: made.isOwner, location: made.location };
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

  it("up makes the account with one POST of what it takes and one PUT of the rest; its creator owns it, and its own API path serves it empty", async () => {
    await service.resetRequests();
    await up();
    expect((await service.writeRequests()).map((r) => `${r.method} ${r.path}`)).toEqual(["POST /accounts", `PUT /accounts/staging-${surface}`]);
    expect((await account(`staging-${surface}`)).body).toMatchObject({ location: "Lisbon" });
    expect(outputs).toMatchObject({ slug: { value: `staging-${surface}` }, name: { value: "analytics staging" }, isOwner: { value: true } });
    expect(outputs.id!.value).toBe(String(outputs.number!.value));
    const inside = await fetch(`${service.url}/staging-${surface}/api/packages`, {
      headers: { accept: "application/vnd.service+json; version=2", authorization: `Basic ${Buffer.from(`${service.apiKey}:`).toString("base64")}` },
    });
    expect(inside.status).toBe(200);
    expect(await inside.json()).toEqual([]);
  });

  it("an unchanged preview makes only the settings' proof, which tells whose the owner's key is, and refresh reads the account once besides", async () => {
    await service.resetRequests();
    await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(await service.allCalls()).toEqual([`GET /accounts/${TEST_ACCOUNT}`]);
    await test.stack.refresh({ expectNoChanges: true, onOutput });
    expect(await service.allCalls()).toEqual([`GET /accounts/${TEST_ACCOUNT}`, `GET /accounts/${TEST_ACCOUNT}`, `GET /accounts/staging-${surface}`]);
  });

  it("a new name and location are one PUT; a new slug renames the account in place, and the old path is gone", async () => {
    args = { ...args, name: "analytics staging (eu)", location: "Amsterdam" };
    await service.resetRequests();
    await up();
    expect((await service.writeRequests()).map((r) => `${r.method} ${r.path}`)).toEqual([`PUT /accounts/staging-${surface}`]);
    expect((await account(`staging-${surface}`)).body).toMatchObject({ name: "analytics staging (eu)", location: "Amsterdam" });
    const id = outputs.id!.value;
    args = { ...args, slug: `staging-${surface}-eu` };
    await up();
    expect(outputs.id!.value).toBe(id);
    expect(outputs.slug!.value).toBe(`staging-${surface}-eu`);
    expect((await account(`staging-${surface}`)).status).toBe(404);
    expect((await account(`staging-${surface}-eu`)).status).toBe(200);
  });

  it("a rename out of band is found by the account's number on refresh, and up renames it back, in one `up --refresh`", async () => {
    await atHostRoot(service, "PUT", `/accounts/staging-${surface}-eu`, { account_id: `elsewhere-${surface}` });
    await service.resetRequests();
    const result = await test.stack.up({ onOutput, refresh: true });
    // A refresh that lost the account would have it made again; one that missed the rename, nothing to update.
    expect(result.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(result.summary.resourceChanges).not.toHaveProperty("create");
    expect((await service.writeRequests()).map((r) => `${r.method} ${r.path}`)).toEqual([`PUT /accounts/elsewhere-${surface}`]);
    expect((await account(`staging-${surface}-eu`)).status).toBe(200);
    expect((await account(`elsewhere-${surface}`)).status).toBe(404);
  });

  it("under the key of a user who is not a member, refresh, preview, up and destroy stop naming the account and the user, and nothing is dropped or made", async () => {
    const slug = `staging-${surface}-eu`;
    const inState = async () => JSON.stringify((await test.stack.exportStack()).deployment.resources ?? []).includes(`"slug":"${slug}"`);
    await test.stack.setConfig("etl:apiKey", { value: OTHER_KEY, secret: true });
    try {
      const said = new RegExp(
        `account ${slug} \\(number \\d+\\) was reached with user 70's API key, but the provider's API key \\(etl:apiKey\\) is now user 80's \\(other@example.com\\), who is not a member of it`,
      );
      // Refresh and destroy use the settings the last up recorded: they meet the new key after the up that tried it.
      const failures: string[] = [];
      for (const operation of [
        () => test.stack.preview({ onOutput }),
        () => test.stack.up({ onOutput }),
        () => test.stack.refresh({ onOutput }),
        () => test.stack.destroy({ onOutput }),
      ]) {
        failures.push(await failureOf(operation()));
        expect(failures.at(-1)).toMatch(said);
      }
      expect(await inState()).toBe(true);
      expect(failures.join("\n")).not.toContain(OTHER_KEY);
    } finally {
      await test.stack.setConfig("etl:apiKey", { value: service.apiKey, secret: true });
    }
    // The failed up recorded the other key for the provider, as refresh and destroy read it: an up records this one again.
    await up();
    // The account is where it was, and neither user has a second one.
    expect((await account(slug)).status).toBe(200);
    expect(await accountsOf(service.apiKey)).toEqual([TEST_ACCOUNT, slug].sort());
    expect(await accountsOf(OTHER_KEY)).toEqual([TEST_ACCOUNT, "elsewhere-team"].sort());
  });

  it("destroy after a rename out of band, with no refresh, confirms the 404 by the account's number and deletes it by its new slug", async () => {
    await atHostRoot(service, "PUT", `/accounts/staging-${surface}-eu`, { account_id: `moved-${surface}` });
    await service.resetRequests();
    await test.stack.destroy({ onOutput });
    expect((await service.writeRequests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      `DELETE /accounts/staging-${surface}-eu 404`,
      `DELETE /accounts/moved-${surface} 200`,
    ]);
    expect((await account(`moved-${surface}`)).status).toBe(404);
    expect(await accountsOf(service.apiKey)).toEqual([TEST_ACCOUNT]);
  });
});
