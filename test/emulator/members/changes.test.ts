import { describe, expect, it } from "vitest";
import { call, expectError, LEE_KEY, OTHER_ACCOUNT, OTHER_KEY } from "../helpers";
import { ADA_KEY, ids, memberServices, ok, root, UNAUTHORIZED } from "./helpers";

/** Changing who belongs to an account: inviting, changing roles and ownership, removing. */

const start = memberServices();

describe("POST /members", () => {
  it("adds an existing user: 200, name ignored, role member by default; the user can then call the account", async () => {
    const emulator = await start();
    await expectError(await call(emulator, "/members", { account: OTHER_ACCOUNT, key: LEE_KEY }), 401, UNAUTHORIZED);
    const added = await ok(
      await call(emulator, "/members", { method: "POST", account: OTHER_ACCOUNT, key: OTHER_KEY, body: { email: "Lee@Example.com", name: "Someone Else" } }),
    );
    expect(added).toMatchObject({ id: 2, name: "Lee Analyst", role: "member", owner: false, confirmed: true });
    expect((await call(emulator, "/members", { account: OTHER_ACCOUNT, key: LEE_KEY })).status).toBe(200);
  });

  it("invites an unknown email: a new unconfirmed user, with the given name and role", async () => {
    const emulator = await start();
    const invited = await ok(
      await call(emulator, "/members", { method: "POST", key: ADA_KEY, body: { email: "new@example.net", name: "New Person", role: "admin" } }),
    );
    expect(invited).toMatchObject({ name: "New Person", email: "new@example.net", role: "admin", owner: false, confirmed: false, confirmed_at: null });
    expect(invited.id).toBeGreaterThan(5);
    const nameless = await ok(await call(emulator, "/members", { method: "POST", body: { email: "anon@example.net" } }));
    expect(nameless).toMatchObject({ name: "", display_name: "anon@example.net", role: "member" });
  });

  it("refuses an existing member, bad fields, and plain members", async () => {
    const emulator = await start();
    await expectError(
      await call(emulator, "/members", { method: "POST", body: { email: "lee@example.com" } }),
      422,
      "email lee@example.com is already a member of this account",
    );
    await expectError(await call(emulator, "/members", { method: "POST", body: {} }), 422, "email is required");
    await expectError(await call(emulator, "/members", { method: "POST", body: { email: "nope" } }), 422, "email must be an email address");
    await expectError(
      await call(emulator, "/members", { method: "POST", body: { email: "x@example.com", role: "owner" } }),
      422,
      "role must be one of member, admin",
    );
    await expectError(await call(emulator, "/members", { method: "POST", body: { email: "x@example.com", colour: 1 } }), 422, "colour is not a known field");
    await expectError(
      await call(emulator, "/members", { method: "POST", key: LEE_KEY, body: { email: "x@example.com" } }),
      403,
      "Only the account's owner or an admin may invite members.",
    );
  });
});

describe("PUT /members/{id}", () => {
  it("changes roles between member and admin, by an admin or the owner", async () => {
    const emulator = await start();
    expect(await ok(await call(emulator, "/members/2", { method: "PUT", key: ADA_KEY, body: { role: "admin" } }))).toMatchObject({ id: 2, role: "admin" });
    expect(await ok(await call(emulator, "/members/2", { method: "PUT", body: { role: "member" } }))).toMatchObject({ id: 2, role: "member" });
    await expectError(
      await call(emulator, "/members/5", { method: "PUT", key: LEE_KEY, body: { role: "member" } }),
      403,
      "Only the account's owner or an admin may change members' roles.",
    );
    await expectError(await call(emulator, "/members/2", { method: "PUT", body: {} }), 422, "role is required");
    await expectError(await call(emulator, "/members/2", { method: "PUT", body: { role: "boss" } }), 422, "role must be one of owner, admin, member");
    await expectError(await call(emulator, "/members/99", { method: "PUT", body: { role: "admin" } }), 404, "Item not found.");
  });

  it("hands ownership over only from the owner; the old owner becomes an admin; the owner cannot be demoted", async () => {
    const emulator = await start();
    await expectError(
      await call(emulator, "/members/1", { method: "PUT", key: ADA_KEY, body: { role: "member" } }),
      422,
      "The account's owner cannot be demoted: hand ownership to another member first.",
    );
    await expectError(await call(emulator, "/members/1", { method: "PUT", body: { role: "admin" } }), 422, /cannot be demoted/);
    await expectError(
      await call(emulator, "/members/2", { method: "PUT", key: ADA_KEY, body: { role: "owner" } }),
      403,
      "Only the account's owner may hand ownership over.",
    );
    const invited = await ok(await call(emulator, "/members", { method: "POST", body: { email: "new@example.net" } }));
    await expectError(
      await call(emulator, `/members/${invited.id}`, { method: "PUT", body: { role: "owner" } }),
      422,
      "Ownership can only be handed to a confirmed member: this user has not signed up yet.",
    );
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
    await expectError(
      await call(emulator, "/members/1", { method: "DELETE", key: ADA_KEY }),
      422,
      "The account's owner cannot be removed: hand ownership to another member first.",
    );
    await expectError(await call(emulator, "/members/1", { method: "DELETE" }), 422, /owner cannot be removed/);
  });

  it("lets a member leave; a user with no account left gets 401 everywhere", async () => {
    const emulator = await start();
    await ok(await call(emulator, "/members/2", { method: "DELETE", key: LEE_KEY }));
    await expectError(await call(emulator, "/members", { key: LEE_KEY }), 401, UNAUTHORIZED);
    await expectError(await root(emulator, "/user", LEE_KEY), 401, UNAUTHORIZED);
  });
});
