/** Schedule in the tests: packages run at an interval. */
import { SHORT_PACKAGE } from "../../support/soak-account";
import { badInput, type KindTests, NONE_MADE_BY_THE_SERVICE, presentByName, referenceExample, soakName, tableOfTheAccount } from "../kind-tests";

const NIGHTLY = { name: "nightly", interval: { amount: 1, unit: "days" }, task: { packages: [{ packageId: 101 }] } };

const rows = tableOfTheAccount("schedules");
const name = soakName("schedule");

export const schedule: KindTests = {
  rows,
  made: { rows, id: (row) => String(row.id) },
  exampleInputs: () => referenceExample("Schedule"),
  replacingChange: "none",
  oldObject: "deleted",
  forcedReplacement: "new object",
  soak: {
    count: 1,
    name,
    // A start years ahead: the schedule never fires during the soak, so it makes no jobs of its own.
    args: (i) => ({
      name: name(i),
      startAt: "2040-01-01T02:00:00Z",
      interval: { amount: 1, unit: "days" },
      task: { packages: [{ packageId: SHORT_PACKAGE.id }] },
    }),
    object: presentByName,
    leftover: (r) => `schedule ${r.id} (${r.name}) still exists`,
    serviceMade: NONE_MADE_BY_THE_SERVICE,
  },
  badInputs: [
    badInput("interval of zero", "interval.amount", { ...NIGHTLY, interval: { amount: 0, unit: "days" } }),
    badInput("unknown interval unit", "interval.unit", { ...NIGHTLY, interval: { amount: 1, unit: "fortnights" } }),
    badInput("no packages", "task.packages", { ...NIGHTLY, task: { packages: [] } }),
    badInput("six retries", "autoRetryAttempts", { ...NIGHTLY, autoRetryAttempts: 6 }),
    badInput("start that is not a time", "startAt", { ...NIGHTLY, startAt: "tomorrow night" }),
    badInput("unknown reuse strategy", "reuseClusterStrategy", { ...NIGHTLY, reuseClusterStrategy: "mine" }),
  ],
};
