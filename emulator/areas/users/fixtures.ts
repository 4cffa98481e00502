import type { z } from "zod";
import { isoTime } from "../../clock";
import type { FixtureAccount } from "../../fixtures/account";
import type { Store } from "../../store";
import type { AccountRecordFixtures } from "../area";
import { addUser, userById } from "./model";

/**
 * The fixtures' users, listed in each account (`accounts[].users`): a user listed in several
 * accounts is one user, a member of each (the members area seeds the memberships).
 */

type FixtureUser = FixtureAccount["users"][number];
type Issue = (field: string, message: string) => void;
const SAME_USER_FIELDS = ["name", "email", "apiKey"] as const;

/** Where each user id, email and key was first seen in the file. */
interface SeenUsers {
  byId: Map<number, { user: FixtureUser; where: string }>;
  idByEmail: Map<string, number>;
  idByKey: Map<string, number>;
}

function checkUser(user: FixtureUser, where: string, seen: SeenUsers, issue: Issue): void {
  const first = seen.byId.get(user.id);
  if (first === undefined) seen.byId.set(user.id, { user, where });
  else {
    for (const field of SAME_USER_FIELDS) {
      if (first.user[field] !== user[field]) issue(field, `user ${user.id} has another ${field} in ${first.where}`);
    }
  }
  const email = user.email.toLowerCase();
  const emailOwner = seen.idByEmail.get(email) ?? user.id;
  if (emailOwner !== user.id) issue("email", `duplicate email: it is user ${emailOwner}'s`);
  if ((seen.idByKey.get(user.apiKey) ?? user.id) !== user.id) issue("apiKey", "duplicate apiKey");
  seen.idByEmail.set(email, emailOwner);
  seen.idByKey.set(user.apiKey, seen.idByKey.get(user.apiKey) ?? user.id);
}

/**
 * The same user may be a member of several accounts: every occurrence of an id must then say
 * the same name, email and key, and an email or a key names one user only (a key alone
 * identifies the caller; members are invited by email).
 */
function checkUsers(accounts: readonly FixtureAccount[], ctx: z.RefinementCtx): void {
  const seen: SeenUsers = { byId: new Map(), idByEmail: new Map(), idByKey: new Map() };
  accounts.forEach((account, i) => {
    const idsHere = new Set<number>();
    account.users.forEach((user, j) => {
      const path = ["accounts", i, "users", j];
      const issue: Issue = (field, message) => ctx.addIssue({ code: "custom", path: [...path, field], message });
      if (idsHere.has(user.id)) issue("id", "duplicate user id in this account");
      idsHere.add(user.id);
      checkUser(user, `accounts[${i}].users[${j}]`, seen, issue);
    });
  });
}

/** Each user once, as a confirmed user who signed up when the fixtures were seeded. */
function seedUsers(store: Store, account: FixtureAccount): void {
  const now = isoTime(store.clock.now());
  for (const { role: _, ...fixture } of account.users) {
    if (userById(store, fixture.id) === undefined) addUser(store, { ...fixture, confirmed: true, confirmedAt: now, createdAt: now, updatedAt: now });
  }
}

export const userFixtures: AccountRecordFixtures = { check: checkUsers, seed: seedUsers };
