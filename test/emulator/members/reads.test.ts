import { describe, expect, it } from "vitest";
import { ACCOUNT, call, expectError, expectOnlyFields, fetchAsIs, LEE_KEY, nextLink, OTHER_ACCOUNT, OTHER_KEY } from "../helpers";
import { ids, MEMBER_FIELDS, memberServices, ok, root, UNAUTHORIZED } from "./helpers";

/** Reading members of an account, the host-root user and the caller's accounts. */

const start = memberServices();

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
