import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startEmulator, type Fixtures, type RunningEmulator } from "../../../emulator";
import {
  ACCOUNT,
  call,
  closedAfterEach,
  DANA_KEY,
  dataDirsRemovedAfterAll,
  expectError,
  LEE_KEY,
  OTHER_ACCOUNT,
  OTHER_KEY,
  readJson,
  rootCall,
  startTestEmulator,
  testFixtures,
} from "../helpers";

/** Accounts made, changed, renamed and deleted at the host root (facts, "Accounts"). */

const ADA_KEY = "test-key-ada-0005";
const UNAUTHORIZED = "Invalid or missing credentials.";
const EMPTY_LISTS = ["/packages", "/connections", "/connection_groups", "/clusters", "/jobs", "/schedules", "/hooks", "/deliveries"];
const HOOK = { type: "email", events: ["job"], settings: { emails: "a@example.com" } };

/** acme-data: Dana owns it, Lee is a member, Ada an admin; globex is Olu's. */
function accountFixtures(): Fixtures {
  const fixtures = testFixtures();
  fixtures.accounts![0]!.users.push({ id: 5, name: "Ada Admin", email: "ada@example.com", apiKey: ADA_KEY, role: "admin" });
  return fixtures;
}

const started = closedAfterEach();

async function start(): Promise<RunningEmulator> {
  return started(await startTestEmulator(accountFixtures()));
}

async function ok(response: Response, status = 200): Promise<any> {
  expect(response.status).toBe(status);
  return readJson(response);
}

function createAccount(emulator: RunningEmulator, body: unknown, key = DANA_KEY): Promise<Response> {
  return rootCall(emulator, "/accounts", { method: "POST", body, key });
}

function changeAccount(emulator: RunningEmulator, slug: string, body: unknown, key = DANA_KEY): Promise<Response> {
  return rootCall(emulator, `/accounts/${slug}`, { method: "PUT", body, key });
}

const slugs = (accounts: { account_id: string }[]) => accounts.map((account) => account.account_id).sort();

describe("POST /accounts", () => {
  it("creates an account its creator owns, with its own empty base_url the same key reaches", async () => {
    const emulator = await start();
    const created = await ok(await createAccount(emulator, { name: "Data Team", region: "gcloud::us-central1", account_id: "data-team" }), 201);
    expect(created).toMatchObject({
      id: 3,
      account_id: "data-team",
      uname: "u_3",
      name: "Data Team",
      region: "gcloud::us-central1",
      location: null,
      billing_email: "dana@example.com",
      gravatar_email: null,
      role: "admin",
      is_owner: true,
      owner_id: 1,
      members_count: 1,
      packages_count: 0,
      hooks_count: 0,
      url: `${emulator.url}/accounts/data-team`,
    });
    expect(created.permissions).toContain("deleteAccount");
    for (const path of EMPTY_LISTS) expect(await ok(await call(emulator, path, { account: "data-team" })), path).toEqual([]);
    expect((await ok(await call(emulator, "/members", { account: "data-team" }))).map((m: { id: number }) => m.id)).toEqual([1]);
    const hook = await ok(await call(emulator, "/hooks", { method: "POST", account: "data-team", body: HOOK }), 201);
    expect(hook.url).toBe(`${emulator.url}/data-team/api/hooks/${hook.id}`);
    await ok(await call(emulator, "/clusters", { method: "POST", account: "data-team", body: { nodes: 1, name: "team" } }), 201);
    expect(await ok(await call(emulator, "/hooks"))).toEqual([]);
    expect(await ok(await rootCall(emulator, "/accounts/data-team"))).toMatchObject({ hooks_count: 1 });
    expect(slugs(await ok(await rootCall(emulator, "/accounts")))).toEqual([ACCOUNT, "data-team"]);
  });

  it("keeps the account from other users: not found at /accounts, 401 below its base_url", async () => {
    const emulator = await start();
    await ok(await createAccount(emulator, { name: "Private", region: "amazon-web-services::eu-west-1", account_id: "private" }), 201);
    await expectError(await rootCall(emulator, "/accounts/private", { key: LEE_KEY }), 404, "Item not found.");
    await expectError(await call(emulator, "/packages", { account: "private", key: OTHER_KEY }), 401, UNAUTHORIZED);
    expect(slugs(await ok(await rootCall(emulator, "/accounts", { key: OTHER_KEY })))).toEqual([OTHER_ACCOUNT]);
  });

  it("makes a free slug from the name when none is given", async () => {
    const emulator = await start();
    const region = "amazon-web-services::us-east-1";
    expect((await ok(await createAccount(emulator, { name: "Acme Data!", region }), 201)).account_id).toBe("acme-data-2");
    expect((await ok(await createAccount(emulator, { name: "Acme Data", region }), 201)).account_id).toBe("acme-data-3");
    expect((await ok(await createAccount(emulator, { name: "API", region }), 201)).account_id).toBe("account");
    expect(await ok(await call(emulator, "/hooks", { account: "acme-data-3" }))).toEqual([]);
  });

  it("answers 422 naming the field, and creates nothing", async () => {
    const emulator = await start();
    const region = "amazon-web-services::us-east-1";
    await expectError(await createAccount(emulator, { region }), 422, "name is required");
    await expectError(await createAccount(emulator, { name: " ", region }), 422, "name must not be blank");
    await expectError(await createAccount(emulator, { name: "x" }), 422, "region is required");
    await expectError(await createAccount(emulator, { name: "x", region: "mars::olympus" }), 422, /^region must be a region id/);
    await expectError(await createAccount(emulator, { name: "x", region, account_id: ACCOUNT }), 422, "account_id acme-data is already taken");
    await expectError(await createAccount(emulator, { name: "x", region, account_id: "GLOBEX" }), 422, "account_id GLOBEX is already taken");
    await expectError(await createAccount(emulator, { name: "x", region, account_id: "no spaces" }), 422, /^account_id must be letters, digits/);
    await expectError(await createAccount(emulator, { name: "x", region, account_id: "api" }), 422, /^account_id must not be api/);
    await expectError(await createAccount(emulator, { name: "x", region, colour: "red" }), 422, "colour is not a known field");
    expect(slugs(await ok(await rootCall(emulator, "/accounts")))).toEqual([ACCOUNT]);
  });
});

describe("PUT /accounts/{account_id}", () => {
  it("renames the account: the old slug is gone, the new one serves the same records", async () => {
    const emulator = await start();
    const hook = await ok(await call(emulator, "/hooks", { method: "POST", body: HOOK }), 201);
    const before = await ok(await rootCall(emulator, `/accounts/${ACCOUNT}`));
    const changes = {
      account_id: "acme-renamed",
      name: "Acme",
      location: "Berlin",
      region: "amazon-web-services::eu-west-1",
      billing_email: "bills@example.com",
      gravatar_email: "logo@example.com",
    };
    const renamed = await ok(await changeAccount(emulator, ACCOUNT, changes, ADA_KEY));
    expect(renamed).toMatchObject({ ...changes, id: 1, role: "admin", is_owner: false, url: `${emulator.url}/accounts/acme-renamed` });
    expect(renamed.avatar_url).toMatch(/^https:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{32}$/);
    expect(renamed.public_key.split(" ")[1]).toBe(before.public_key.split(" ")[1]);
    await expectError(await rootCall(emulator, `/accounts/${ACCOUNT}`), 404, "Item not found.");
    await expectError(await call(emulator, "/hooks"), 401, UNAUTHORIZED);
    expect((await ok(await call(emulator, "/hooks", { account: "acme-renamed" }))).map((h: { id: number }) => h.id)).toEqual([hook.id]);
    expect(await ok(await rootCall(emulator, "/accounts/acme-renamed", { key: LEE_KEY }))).toMatchObject({ name: "Acme", location: "Berlin" });
  });

  it("changes only what the body gives; null clears; an admin or the owner only", async () => {
    const emulator = await start();
    await ok(await changeAccount(emulator, ACCOUNT, { billing_email: "bills@example.com", location: "Oslo" }));
    const cleared = await ok(await changeAccount(emulator, ACCOUNT, { billing_email: null }));
    expect(cleared).toMatchObject({ account_id: ACCOUNT, name: ACCOUNT, location: "Oslo", billing_email: null, region: "amazon-web-services::us-east-1" });
    await expectError(await changeAccount(emulator, ACCOUNT, { name: "mine" }, LEE_KEY), 403, "Only the account's owner or an admin may change the account.");
    await expectError(await changeAccount(emulator, OTHER_ACCOUNT, { name: "mine" }), 404, "Item not found.");
    await expectError(await changeAccount(emulator, ACCOUNT, { account_id: OTHER_ACCOUNT }), 422, "account_id globex is already taken");
    await expectError(await changeAccount(emulator, ACCOUNT, { region: "nowhere" }), 422, /^region must be a region id/);
    await expectError(await changeAccount(emulator, ACCOUNT, { billing_email: "nope" }), 422, "billing_email must be an email address");
    await expectError(await changeAccount(emulator, ACCOUNT, { owner: 2 }), 422, "owner is not a known field");
    expect((await ok(await changeAccount(emulator, ACCOUNT, { account_id: ACCOUNT }))).account_id).toBe(ACCOUNT);
  });
});

describe("DELETE /accounts/{account_id}", () => {
  it("is the owner's alone; the account and its records go, its users stay", async () => {
    const emulator = await start();
    await ok(await createAccount(emulator, { name: "Scratch", region: "amazon-web-services::us-east-1", account_id: "scratch" }), 201);
    await ok(await call(emulator, "/members", { method: "POST", account: "scratch", body: { email: "ada@example.com", role: "admin" } }));
    await ok(await call(emulator, "/hooks", { method: "POST", account: "scratch", body: HOOK }), 201);
    await expectError(
      await rootCall(emulator, "/accounts/scratch", { method: "DELETE", key: ADA_KEY }),
      403,
      "Only the account's owner may delete the account.",
    );
    await expectError(await rootCall(emulator, "/accounts/scratch", { method: "DELETE", key: LEE_KEY }), 404, "Item not found.");
    const deleted = await ok(await rootCall(emulator, "/accounts/scratch", { method: "DELETE" }));
    expect(deleted).toMatchObject({ id: 3, account_id: "scratch", hooks_count: 1, members_count: 2 });
    await expectError(await rootCall(emulator, "/accounts/scratch"), 404, "Item not found.");
    await expectError(await call(emulator, "/hooks", { account: "scratch" }), 401, UNAUTHORIZED);
    expect(slugs(await ok(await rootCall(emulator, "/accounts", { key: ADA_KEY })))).toEqual([ACCOUNT]);
    expect((await ok(await call(emulator, "/members"))).map((m: { id: number }) => m.id).sort()).toEqual([1, 2, 5]);
    // A new account with the same slug is a new, empty one, with an id of its own.
    const again = await ok(await createAccount(emulator, { name: "Scratch", region: "amazon-web-services::us-east-1", account_id: "scratch" }), 201);
    expect(again).toMatchObject({ id: 4, hooks_count: 0, members_count: 1 });
    expect(await ok(await call(emulator, "/hooks", { account: "scratch" }))).toEqual([]);
  });

  it("refuses an admin of a fixture account, and the account stays", async () => {
    const emulator = await start();
    await expectError(
      await rootCall(emulator, `/accounts/${ACCOUNT}`, { method: "DELETE", key: ADA_KEY }),
      403,
      "Only the account's owner may delete the account.",
    );
    expect(await ok(await rootCall(emulator, `/accounts/${ACCOUNT}`, { key: ADA_KEY }))).toMatchObject({ account_id: ACCOUNT });
  });
});

describe("accounts across a restart", () => {
  const newDataDir = dataDirsRemovedAfterAll("etl-accounts-");

  it("keeps new accounts, renames, deletions and their records", async () => {
    const dataDir = newDataDir();
    const first = await startEmulator({ dataDir, fixtures: accountFixtures() });
    const region = "amazon-web-services::us-east-1";
    await ok(await createAccount(first, { name: "Kept", region, account_id: "kept" }), 201);
    const hook = await ok(await call(first, "/hooks", { method: "POST", account: "kept", body: HOOK }), 201);
    const gone = await ok(await createAccount(first, { name: "Gone", region, account_id: "gone" }), 201);
    await ok(await call(first, "/hooks", { method: "POST", account: "gone", body: HOOK }), 201);
    await ok(await rootCall(first, "/accounts/gone", { method: "DELETE" }));
    await ok(await changeAccount(first, OTHER_ACCOUNT, { account_id: "globex-2", location: "Lagos" }, OTHER_KEY));
    await first.close();
    const saved = JSON.parse(readFileSync(join(dataDir, "state.json"), "utf8"));
    const rows: { accountId: number }[] = Object.values(saved.tables as Record<string, { accountId: number }[]>).flat();
    expect(rows.filter((row) => row.accountId === gone.id)).toEqual([]);
    expect(rows.filter((row) => row.accountId === 3).length).toBeGreaterThanOrEqual(2);

    const second = started(await startEmulator({ dataDir, fixtures: accountFixtures() }));
    expect(second.restored).toBe(true);
    expect((await ok(await call(second, "/hooks", { account: "kept" }))).map((h: { id: number }) => h.id)).toEqual([hook.id]);
    expect(await ok(await rootCall(second, "/accounts/kept"))).toMatchObject({ is_owner: true, name: "Kept" });
    await expectError(await rootCall(second, "/accounts/gone"), 404, "Item not found.");
    await expectError(await rootCall(second, `/accounts/${OTHER_ACCOUNT}`, { key: OTHER_KEY }), 404, "Item not found.");
    expect(await ok(await rootCall(second, "/accounts/globex-2", { key: OTHER_KEY }))).toMatchObject({ location: "Lagos" });
    // Ids go on after the deleted account's: none is handed out twice.
    expect((await ok(await createAccount(second, { name: "Next", region }), 201)).id).toBe(5);
  });
});
