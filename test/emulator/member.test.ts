import { describe, expect, it } from "vitest";
import type { Fixtures, RunningEmulator } from "../../emulator";
import {
  ACCEPT,
  ACCOUNT,
  basic,
  call,
  closedAfterEach,
  DANA_KEY,
  expectError,
  expectOnlyFields,
  fetchAsIs,
  LEE_KEY,
  nextLink,
  OTHER_ACCOUNT,
  OTHER_KEY,
  readJson,
  startTestEmulator,
  testFixtures,
} from "./helpers";

/** Members of an account, and the host-root user and accounts (facts, "Members", "Users", "Accounts"). */

const ADA_KEY = "test-key-ada-0005";
const UNAUTHORIZED = "Invalid or missing credentials.";

const MEMBER_FIELDS = [
  "id", "name", "display_name", "email", "gravatar_email", "avatar_url", "location", "confirmed", "confirmed_at",
  "role", "owner", "created_at", "updated_at", "url", "html_url",
];

/** acme-data: Dana owns it, Lee is a member, Ada an admin, Olu (owner of globex) a member too. */
function memberFixtures(): Fixtures {
  const fixtures = testFixtures();
  const [acme, globex] = fixtures.accounts!;
  acme!.users.push(
    { id: 5, name: "Ada Admin", email: "ada@example.com", apiKey: ADA_KEY, role: "admin" },
    { id: 3, name: "Olu Other", email: "olu@example.org", apiKey: OTHER_KEY },
  );
  return { accounts: [acme!, globex!] };
}

const started = closedAfterEach();

async function start(): Promise<RunningEmulator> {
  return started(await startTestEmulator(memberFixtures()));
}

/** A request to the host root (`/user`, `/accounts`), outside `{base_url}`. */
function root(emulator: RunningEmulator, path: string, key = DANA_KEY): Promise<Response> {
  return fetch(`${emulator.url}${path}`, { headers: { Accept: ACCEPT, Authorization: basic(key) } });
}

async function ok(response: Response, status = 200): Promise<any> {
  expect(response.status).toBe(status);
  return readJson(response);
}

const ids = (members: { id: number }[]) => members.map((member) => member.id);

describe("GET /members", () => {
  it("lists the account's members, newest first, the owner as an admin with owner: true", async () => {
    const emulator = await start();
    const members = await ok(await call(emulator, "/members"));
    expect(ids(members)).toEqual([5, 3, 2, 1]);
    const dana = members.find((member: { id: number }) => member.id === 1);
    expectOnlyFields(dana, MEMBER_FIELDS);
    expect(dana).toMatchObject({
      name: "Dana Platform",
      display_name: "Dana Platform",
      email: "dana@example.com",
      role: "admin",
      owner: true,
      confirmed: true,
      url: `${emulator.url}/${ACCOUNT}/api/members/1`,
      html_url: `${emulator.url}/${ACCOUNT}/settings/members/1`,
    });
    expect(dana.avatar_url).toMatch(/^https:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{32}$/);
    expect(members.find((member: { id: number }) => member.id === 2)).toMatchObject({ role: "member", owner: false });
  });

  it("filters by role (admin includes the owner) and by email (any case)", async () => {
    const emulator = await start();
    expect(ids(await ok(await call(emulator, "/members?role=admin")))).toEqual([5, 1]);
    expect(ids(await ok(await call(emulator, "/members?role=member")))).toEqual([3, 2]);
    expect(ids(await ok(await call(emulator, "/members?role=all")))).toEqual([5, 3, 2, 1]);
    expect(ids(await ok(await call(emulator, "/members?email=LEE@example.com")))).toEqual([2]);
    expect(await ok(await call(emulator, "/members?email=nobody@example.com"))).toEqual([]);
    await expectError(await call(emulator, "/members?role=owner"), 400, "role must be all or one of admin, member");
  });

  it("sorts by name and email, pages with a Link header, and filters on since", async () => {
    const emulator = await start();
    const byName = await ok(await call(emulator, "/members?sort=name&direction=asc"));
    expect(byName.map((member: { name: string }) => member.name)).toEqual(["Ada Admin", "Dana Platform", "Lee Analyst", "Olu Other"]);
    const byEmail = await ok(await call(emulator, "/members?sort=email"));
    expect(byEmail.map((member: { email: string }) => member.email)).toEqual(["olu@example.org", "lee@example.com", "dana@example.com", "ada@example.com"]);
    const first = await call(emulator, "/members?sort=name&direction=asc&limit=3");
    expect((await ok(first)).length).toBe(3);
    const next = nextLink(first);
    expect(next).toBe(`${emulator.url}/${ACCOUNT}/api/members?sort=name&direction=asc&offset=3&limit=3`);
    expect(ids(await ok(await fetchAsIs(next!)))).toEqual([3]);
    await expectError(await call(emulator, "/members?sort=role"), 400, "sort must be one of created, updated, name, email");
    expect(await ok(await call(emulator, "/members?since=2999-01-01T00:00:00Z"))).toEqual([]);
    expect((await ok(await call(emulator, "/members?since=2000-01-01T00:00:00Z"))).length).toBe(4);
  });

  it("gets one member by user id; a user of another account is not found", async () => {
    const emulator = await start();
    expect(await ok(await call(emulator, "/members/2"))).toMatchObject({ id: 2, email: "lee@example.com" });
    await expectError(await call(emulator, "/members/1", { account: OTHER_ACCOUNT, key: OTHER_KEY }), 404, "Item not found.");
    await expectError(await call(emulator, "/members/abc"), 404, "Item not found.");
  });
});

describe("POST /members", () => {
  it("adds an existing user: 200, name ignored, role member by default; the user can then call the account", async () => {
    const emulator = await start();
    await expectError(await call(emulator, "/members", { account: OTHER_ACCOUNT, key: LEE_KEY }), 401, UNAUTHORIZED);
    const added = await ok(await call(emulator, "/members", { method: "POST", account: OTHER_ACCOUNT, key: OTHER_KEY, body: { email: "Lee@Example.com", name: "Someone Else" } }));
    expect(added).toMatchObject({ id: 2, name: "Lee Analyst", role: "member", owner: false, confirmed: true });
    expect((await call(emulator, "/members", { account: OTHER_ACCOUNT, key: LEE_KEY })).status).toBe(200);
  });

  it("invites an unknown email: a new unconfirmed user, with the given name and role", async () => {
    const emulator = await start();
    const invited = await ok(await call(emulator, "/members", { method: "POST", key: ADA_KEY, body: { email: "new@example.net", name: "New Person", role: "admin" } }));
    expect(invited).toMatchObject({ name: "New Person", email: "new@example.net", role: "admin", owner: false, confirmed: false, confirmed_at: null });
    expect(invited.id).toBeGreaterThan(5);
    const nameless = await ok(await call(emulator, "/members", { method: "POST", body: { email: "anon@example.net" } }));
    expect(nameless).toMatchObject({ name: "", display_name: "anon@example.net", role: "member" });
  });

  it("refuses an existing member, bad fields, and plain members", async () => {
    const emulator = await start();
    await expectError(await call(emulator, "/members", { method: "POST", body: { email: "lee@example.com" } }), 422, "email lee@example.com is already a member of this account");
    await expectError(await call(emulator, "/members", { method: "POST", body: {} }), 422, "email is required");
    await expectError(await call(emulator, "/members", { method: "POST", body: { email: "nope" } }), 422, "email must be an email address");
    await expectError(await call(emulator, "/members", { method: "POST", body: { email: "x@example.com", role: "owner" } }), 422, "role must be one of member, admin");
    await expectError(await call(emulator, "/members", { method: "POST", body: { email: "x@example.com", colour: 1 } }), 422, "colour is not a known field");
    await expectError(await call(emulator, "/members", { method: "POST", key: LEE_KEY, body: { email: "x@example.com" } }), 403, "Only the account's owner or an admin may invite members.");
  });
});

describe("PUT /members/{id}", () => {
  it("changes roles between member and admin, by an admin or the owner", async () => {
    const emulator = await start();
    expect(await ok(await call(emulator, "/members/2", { method: "PUT", key: ADA_KEY, body: { role: "admin" } }))).toMatchObject({ id: 2, role: "admin" });
    expect(await ok(await call(emulator, "/members/2", { method: "PUT", body: { role: "member" } }))).toMatchObject({ id: 2, role: "member" });
    await expectError(await call(emulator, "/members/5", { method: "PUT", key: LEE_KEY, body: { role: "member" } }), 403, "Only the account's owner or an admin may change members' roles.");
    await expectError(await call(emulator, "/members/2", { method: "PUT", body: {} }), 422, "role is required");
    await expectError(await call(emulator, "/members/2", { method: "PUT", body: { role: "boss" } }), 422, "role must be one of owner, admin, member");
    await expectError(await call(emulator, "/members/99", { method: "PUT", body: { role: "admin" } }), 404, "Item not found.");
  });

  it("hands ownership over only from the owner; the old owner becomes an admin; the owner cannot be demoted", async () => {
    const emulator = await start();
    await expectError(await call(emulator, "/members/1", { method: "PUT", key: ADA_KEY, body: { role: "member" } }), 422, "The account's owner cannot be demoted: hand ownership to another member first.");
    await expectError(await call(emulator, "/members/1", { method: "PUT", body: { role: "admin" } }), 422, /cannot be demoted/);
    await expectError(await call(emulator, "/members/2", { method: "PUT", key: ADA_KEY, body: { role: "owner" } }), 403, "Only the account's owner may hand ownership over.");
    const invited = await ok(await call(emulator, "/members", { method: "POST", body: { email: "new@example.net" } }));
    await expectError(await call(emulator, `/members/${invited.id}`, { method: "PUT", body: { role: "owner" } }), 422, "Ownership can only be handed to a confirmed member: this user has not signed up yet.");
    expect(await ok(await call(emulator, "/members/2", { method: "PUT", body: { role: "owner" } }))).toMatchObject({ id: 2, role: "admin", owner: true });
    expect(await ok(await call(emulator, "/members/1"))).toMatchObject({ role: "admin", owner: false });
    const owners = (await ok(await call(emulator, "/members"))).filter((member: { owner: boolean }) => member.owner);
    expect(ids(owners)).toEqual([2]);
    expect(await ok(await call(emulator, "/members/1", { method: "PUT", body: { role: "member" } }))).toMatchObject({ role: "member" });
  });
});

describe("DELETE /members/{id}", () => {
  it("removes the membership only: the user gets 401 here and still works in their other account", async () => {
    const emulator = await start();
    const removed = await ok(await call(emulator, "/members/3", { method: "DELETE", key: LEE_KEY }));
    expect(removed).toMatchObject({ id: 3, email: "olu@example.org", role: "member" });
    await expectError(await call(emulator, "/members/3"), 404, "Item not found.");
    await expectError(await call(emulator, "/members", { key: OTHER_KEY }), 401, UNAUTHORIZED);
    expect((await call(emulator, "/members", { key: OTHER_KEY, account: OTHER_ACCOUNT })).status).toBe(200);
    expect(await ok(await root(emulator, "/user", OTHER_KEY))).toMatchObject({ id: 3 });
  });

  it("never removes the owner", async () => {
    const emulator = await start();
    await expectError(await call(emulator, "/members/1", { method: "DELETE", key: ADA_KEY }), 422, "The account's owner cannot be removed: hand ownership to another member first.");
    await expectError(await call(emulator, "/members/1", { method: "DELETE" }), 422, /owner cannot be removed/);
  });

  it("lets a member leave; a user with no account left gets 401 everywhere", async () => {
    const emulator = await start();
    await ok(await call(emulator, "/members/2", { method: "DELETE", key: LEE_KEY }));
    await expectError(await call(emulator, "/members", { key: LEE_KEY }), 401, UNAUTHORIZED);
    await expectError(await root(emulator, "/user", LEE_KEY), 401, UNAUTHORIZED);
  });
});

describe("GET /user", () => {
  it("is the caller, without an API key", async () => {
    const emulator = await start();
    const response = await root(emulator, "/user", LEE_KEY);
    const text = await response.clone().text();
    expect(text).not.toContain(LEE_KEY);
    const user = await ok(response);
    expect(user).not.toHaveProperty("api_key");
    expect(user).toMatchObject({
      id: 2,
      name: "Lee Analyst",
      email: "lee@example.com",
      confirmed: true,
      time_zone: "UTC",
      notifications_count: 0,
      unread_notifications_count: 0,
      url: `${emulator.url}/user`,
    });
    await expectError(await root(emulator, "/user", "wrong-key"), 401, UNAUTHORIZED);
  });
});

describe("GET /accounts", () => {
  it("lists the caller's accounts with the caller's role, filtered by role and sorted", async () => {
    const emulator = await start();
    const accounts = await ok(await root(emulator, "/accounts?sort=id&direction=asc", OTHER_KEY));
    expect(accounts.map((a: { account_id: string }) => a.account_id)).toEqual([ACCOUNT, OTHER_ACCOUNT]);
    expect(accounts[0]).toMatchObject({ role: "member", is_owner: false, owner_id: 1 });
    expect(accounts[1]).toMatchObject({ role: "admin", is_owner: true, owner_id: 3 });
    expect(accounts[1].permissions).toContain("changeAccountOwner");
    expect(accounts[0].permissions).toContain("deleteMember");
    expect(accounts[0].permissions).not.toContain("inviteMember");
    const admin = await ok(await root(emulator, "/accounts?role=admin", OTHER_KEY));
    expect(admin.map((a: { account_id: string }) => a.account_id)).toEqual([OTHER_ACCOUNT]);
    expect((await ok(await root(emulator, "/accounts", LEE_KEY))).map((a: { id: number }) => a.id)).toEqual([1]);
    await expectError(await root(emulator, "/accounts?role=boss"), 400, "role must be all or one of admin, member");
  });

  it("gets one account by its slug, with its counters; another account is not found", async () => {
    const emulator = await start();
    const created = await call(emulator, "/hooks", { method: "POST", body: { type: "email", events: ["job"], settings: { emails: "a@example.com" } } });
    expect(created.status).toBe(201);
    const account = await ok(await root(emulator, `/accounts/${ACCOUNT}`));
    expect(account).toMatchObject({
      id: 1,
      account_id: ACCOUNT,
      uname: "u_1",
      name: ACCOUNT,
      role: "admin",
      is_owner: true,
      owner_id: 1,
      members_count: 4,
      hooks_count: 1,
      jobs_count: 0,
      connections_count: 0,
      schedules_count: 0,
      url: `${emulator.url}/accounts/${ACCOUNT}`,
    });
    expect(account.public_key).toMatch(/^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI[A-Za-z0-9+/]+={0,2} acme-data$/);
    await expectError(await root(emulator, `/accounts/${OTHER_ACCOUNT}`), 404, "Item not found.");
    await expectError(await root(emulator, "/accounts/nowhere"), 404, "Item not found.");
    await expectError(await root(emulator, "/accounts/%E0%A4%A"), 404, "Item not found.");
  });
});
