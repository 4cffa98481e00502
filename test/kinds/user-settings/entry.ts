/** UserSettings in the tests: the settings of the key's user, whom the service holds before any stack and after it. */
import { badInput, type KindTests, NONE_MADE_BY_THE_SERVICE, referenceExample, soakName, type StateDump } from "../kind-tests";

/** The key's user: the account's first. */
const rows = (state: StateDump) => (state.accounts[0]!.users ?? []).slice(0, 1);

export const userSettings: KindTests = {
  rows,
  made: { rows, id: (row) => String(row.id) },
  exampleInputs: () => referenceExample("UserSettings"),
  replacingChange: "none",
  oldObject: "taken over again",
  forcedReplacement: "new object",
  soak: {
    count: 1,
    name: soakName("settings"),
    args: () => ({ timeZone: "Amsterdam", receiveNewsletter: false }),
    // Always there: never an orphan, and destroy leaves it.
    object: (r) => ({ id: String(r.id), owner: r.email, live: true }),
    leftover: () => undefined,
    serviceMade: NONE_MADE_BY_THE_SERVICE,
  },
  badInputs: [
    badInput("time zone not in the catalogue", "timeZone", { timeZone: "Mars/Olympus_Mons" }),
    badInput("notification settings without web", "notificationSettings.web", { notificationSettings: { email: true } }),
    badInput("newsletter not a boolean", "receiveNewsletter", { receiveNewsletter: "yes" }),
  ],
};
