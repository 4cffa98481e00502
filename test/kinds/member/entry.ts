/** Member in the tests: a person's membership of the account, under the person's user id. */
import { badInput, type KindTests, NONE_MADE_BY_THE_SERVICE, referenceExample, soakName, tableOfTheAccount } from "../kind-tests";

const name = soakName("member");

export const member: KindTests = {
  rows: tableOfTheAccount("users"),
  // A removal ends the membership and the user stays: a member is counted by its membership.
  made: { rows: tableOfTheAccount("memberships"), id: (row) => String(row.userId) },
  exampleInputs: () => referenceExample("Member"),
  replacingChange: { email: "bo@example.com" },
  oldObject: "deleted",
  // A member\'s id is the person\'s: the membership is removed and added again under it.
  forcedReplacement: { sameId: (id) => [`DELETE /members/${id}`, "POST /members"] },
  soak: {
    count: 2,
    name,
    args: (i) => ({ email: `soak-member-${i}@example.com`, role: i === 0 ? "admin" : "member" }),
    object: (r) => ({ id: String(r.id), owner: r.email, live: true }),
    leftover: (r) => `${r.email} (user ${r.id}) is still a member`,
    serviceMade: NONE_MADE_BY_THE_SERVICE,
  },
  badInputs: [
    badInput("email that is not an address", "email", { email: "dana" }),
    badInput("missing email", "email", { role: "admin" }),
    badInput("the owner's role", "role", { email: "kim@example.com", role: "owner" }),
    badInput("unknown role", "role", { email: "kim@example.com", role: "viewer" }),
    badInput("importId neither an id nor an email", "importId", { email: "kim@example.com", importId: "kim" }),
    badInput("unknown input", "team", { email: "kim@example.com", team: "data" }),
  ],
};
