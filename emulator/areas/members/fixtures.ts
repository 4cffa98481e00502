import type { z } from "zod";
import type { MemberRole } from "../../../contract/vocabularies";
import { isoTime } from "../../clock";
import type { FixtureAccount } from "../../fixtures/account";
import type { Store } from "../../store";
import type { AccountRecordFixtures } from "../area";
import { MEMBERSHIPS } from "./model";

/** The fixtures' roles (`accounts[].users[].role`): each user listed in an account is a member of it. */

/**
 * Each user's role in the account: the one given, else `owner` for the first user when no user
 * is given that role, else `member`.
 */
function fixtureRoles(account: Pick<FixtureAccount, "users">): MemberRole[] {
  const ownerGiven = account.users.some((user) => user.role === "owner");
  return account.users.map((user, j) => user.role ?? (j === 0 && !ownerGiven ? "owner" : "member"));
}

function checkOneOwner(account: FixtureAccount, index: number, ctx: z.RefinementCtx): void {
  const roles = fixtureRoles(account);
  const owners = roles.flatMap((role, j) => (role === "owner" ? [j] : []));
  if (owners.length === 0) {
    const message = "an account needs exactly one owner: give one user role owner, or leave the first user's role out";
    ctx.addIssue({ code: "custom", path: ["accounts", index, "users"], message });
  }
  for (const j of owners.slice(1)) {
    const message = `second owner: users[${owners[0]}] owns this account already, and an account has exactly one owner`;
    ctx.addIssue({ code: "custom", path: ["accounts", index, "users", j, "role"], message });
  }
}

function checkOwners(accounts: readonly FixtureAccount[], ctx: z.RefinementCtx): void {
  for (const [i, account] of accounts.entries()) checkOneOwner(account, i, ctx);
}

/** A membership per user listed, in the account's order, all made at the same instant. */
function seedMemberships(store: Store, account: FixtureAccount): void {
  const now = isoTime(store.clock.now());
  const roles = fixtureRoles(account);
  account.users.forEach(({ id: userId }, j) => {
    store.insert(MEMBERSHIPS, { accountId: account.id, userId, role: roles[j]!, createdAt: now, updatedAt: now });
  });
}

export const memberFixtures: AccountRecordFixtures = { check: checkOwners, seed: seedMemberships };
