import * as pulumi from "@pulumi/pulumi";
import * as etl from "pulumi-etl";

/**
 * The set-up a platform team keeps next to its infrastructure: the orders rollup runs every
 * night at 02:00 UTC on a cluster of its own, and failed jobs are posted to an alerting
 * endpoint, signed with the hook's salt. The ids default to the emulator's default account.
 */
const config = new pulumi.Config();

const nightly = new etl.Schedule("nightly-rollup", {
  name: "nightly orders rollup",
  description: "Rolls up the day's orders",
  startAt: config.get("startAt") ?? "2030-01-01T02:00:00Z",
  interval: { amount: 1, unit: "days" },
  overlap: false,
  reuseClusterStrategy: "self",
  task: {
    nodes: 2,
    packages: [{ packageId: config.getNumber("packageId") ?? 101, variables: { region: etl.stringLiteral("all") } }],
  },
});

const failures = new etl.Hook("failed-jobs", {
  type: "web",
  name: "failed jobs",
  events: ["job.failed"],
  settings: {
    url: config.get("alertUrl") ?? "https://alerts.example.com/etl",
    basicAuth: { username: "etl", password: config.getSecret("alertPassword") ?? pulumi.secret("change-me") },
  },
});

export const scheduleId = nightly.id;
export const nextRunAt = nightly.nextRunAt;
export const hookId = failures.id;
/** Receivers check `X-Hook-Signature` with it. */
export const hookSalt = failures.salt;
