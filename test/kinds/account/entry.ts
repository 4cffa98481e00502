/** Account in the tests: a further account of the key's user, known by its slug; the dump's list of accounts. */
import { badInput, type KindTests, NONE_MADE_BY_THE_SERVICE, referenceExample, soakName, type StateDump, type StateRow } from "../kind-tests";

const ACCOUNT = { name: "staging", region: "amazon-web-services::us-east-1" };

const rows = (state: StateDump) => state.accounts as StateRow[];
const name = soakName("account");

export const account: KindTests = {
  rows,
  made: { rows, id: (row) => String(row.id) },
  exampleInputs: () => referenceExample("Account"),
  replacingChange: "none",
  oldObject: "deleted",
  forcedReplacement: "new object",
  soak: {
    count: 1,
    name,
    // Its slug given: the ledger knows the account by it, and a second create of it is refused.
    args: (i) => ({ name: name(i), slug: name(i), region: "amazon-web-services::us-east-1" }),
    // Present until deleted: only the owner, the stack's key, deletes it.
    object: (r) => ({ id: String(r.id), owner: r.uid, live: true }),
    leftover: (r) => `account ${r.id} (${r.uid}) still exists`,
    serviceMade: NONE_MADE_BY_THE_SERVICE,
  },
  badInputs: [
    badInput("missing region", "region", { name: "staging" }),
    badInput("region that is not a region id", "region", { ...ACCOUNT, region: "us-east-1" }),
    badInput("slug with a space", "slug", { ...ACCOUNT, slug: "data team" }),
    badInput("slug the API's own", "slug", { ...ACCOUNT, slug: "api" }),
    badInput("billing email that is not an address", "billingEmail", { ...ACCOUNT, billingEmail: "billing at example.com" }),
  ],
};
