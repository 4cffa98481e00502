import * as pulumi from "@pulumi/pulumi";
import * as etl from "pulumi-etl";

/**
 * Who may use the account, and with which role: a pull request that adds a line here invites
 * the person (a user is made for an address the service does not know), and one that removes a
 * line removes the membership. The owner is handed over in the service, never here. Someone
 * who is a member already is taken over with `importId` (their email) once.
 */
interface Teammate {
  email: string;
  role?: "member" | "admin";
  /** Used only when the person is invited. */
  name?: string;
}

const config = new pulumi.Config();
const team = config.getObject<Teammate[]>("team") ?? [
  { email: "sam@example.com", role: "admin", name: "Sam Engineer" },
  { email: "ari@example.com", name: "Ari Analyst" },
];

/** Resource names from addresses, so reordering the list changes nothing. */
const resourceName = (email: string) => email.toLowerCase().replace(/[^a-z0-9]+/g, "-");

const members = team.map((teammate) => new etl.Member(resourceName(teammate.email), teammate));

// The account as the service shows it, with the caller's role there.
const account = etl.getAccount();

export const accountName = account.then((a) => a.name);
export const roles = pulumi.all(members.map((m) => pulumi.all([m.email, m.role]))).apply((pairs) => Object.fromEntries(pairs));
export const invitationsPending = pulumi
  .all(members.map((m) => pulumi.all([m.email, m.confirmed])))
  .apply((pairs) => pairs.filter(([, confirmed]) => !confirmed).map(([email]) => email));
