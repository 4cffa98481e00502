/** Member's check and diff: roles a program may give, the owner left alone, emails compared in any case. */
import { describe, expect, it } from "vitest";
import type { MemberRecord } from "../../../provider/api/members";
import { tableOperations, type MemberInputs } from "../../../provider/resources/member/fields";
import { memberImplementation } from "../../../provider/resources/member/implementation";
import { expectedFailure } from "../check-failure";
import { noCallsContext } from "../../support/context";

const check = (news: Record<string, unknown>) => memberImplementation.check({}, news);

function record(overrides: Partial<MemberRecord> = {}): MemberRecord {
  return {
    id: 12,
    name: "Lee Analyst",
    display_name: "Lee Analyst",
    email: "lee@example.com",
    confirmed: true,
    confirmed_at: null,
    role: "member",
    owner: false,
    created_at: "t",
    updated_at: "t",
    ...overrides,
  };
}

describe("Member check", () => {
  it.each<[Record<string, unknown>, string, string]>([
    [{ email: "not-an-address" }, "email", 'email must be an email address such as "dana@example.com"'],
    [
      { email: "lee@example.com", role: "owner" },
      "role",
      "role must be one of member, admin: ownership is handed over in the service by the owner, and is not managed by Pulumi",
    ],
    [{ email: "lee@example.com", role: "superuser" }, "role", "role must be one of member, admin"],
    [{ email: "lee@example.com", importId: "lee" }, "importId", 'must be an existing member\'s id (such as "42") or email address'],
    [{}, "email", "email is required"],
  ])("fails %j on %s", async (inputs, property, reason) => {
    const result = await check(inputs);
    expect(!result.ok && result.failures).toContainEqual(expectedFailure(inputs, property, reason));
  });

  it("takes an email in any case, and an import by id or email", async () => {
    expect(await check({ email: " Lee@Example.COM ", importId: "Lee@Example.com" })).toMatchObject({
      ok: true,
      inputs: { email: "lee@example.com", importId: "lee@example.com" },
    });
    expect(await check({ email: "lee@example.com", importId: 12 })).toMatchObject({ ok: true, inputs: { importId: "12" } });
  });
});

describe("Member diff", () => {
  const parsed = (inputs: Record<string, unknown>) => tableOperations.inputSchema.parse(inputs) as MemberInputs;

  it("updates a role in place, replaces for another email, and never compares the invitation's name", async () => {
    const olds = tableOperations.outputs(record(), parsed({ email: "lee@example.com" }));
    expect(await memberImplementation.diff("12", olds, parsed({ email: "lee@example.com", name: "Someone Else" }))).toMatchObject({ changes: false });
    expect(await memberImplementation.diff("12", olds, parsed({ email: "lee@example.com", role: "admin" }))).toMatchObject({ changes: true, replaces: [] });
    expect((await memberImplementation.diff("12", olds, parsed({ email: "kim@example.com" }))).replaces).toContain("email");
  });

  it("leaves the owner's role alone, and refuses to remove the owner without a call", async () => {
    const olds = tableOperations.outputs(record({ role: "admin", owner: true }), parsed({ email: "lee@example.com" }));
    expect(olds.role).toBe("owner");
    expect(await memberImplementation.diff("12", olds, parsed({ email: "lee@example.com", role: "admin" }))).toMatchObject({ changes: false });
    await expect(memberImplementation.delete(noCallsContext(), "12", olds)).rejects.toThrow(
      /member 12 \(lee@example.com\) is the account's owner, and the owner cannot be removed/,
    );
  });
});
