import * as pulumi from "@pulumi/pulumi";
import * as etl from "pulumi-etl";

/**
 * What a platform team hands its teams: a paved road. Each team's ETL set-up is one `Pipeline`
 * (a package, its schedule on a cluster of a chosen size, an alert on failed runs), and the
 * platform's policy pack checks every preview before anything reaches the service:
 *
 *   pulumi preview --policy-pack ../../policy/analyzer --policy-pack-config policy-config.json
 *
 * (`--policy-pack ../../policy` with Pulumi's own CLI; see docs/policy.md.)
 */
const config = new pulumi.Config();

/**
 * The orders team: a nightly rollup at 05:00 UTC (06:00 in Berlin in winter, 07:00 in summer: the
 * service repeats a schedule in UTC, so a daily cron in a zone with summer time is refused),
 * alerting its own endpoint.
 */
const orders = new etl.Pipeline("orders", {
  name: "orders rollup",
  description: "Rolls up the day's orders",
  variables: { region: etl.stringLiteral("eu") },
  schedule: { cron: "0 5 * * *" },
  cluster: { nodes: config.getNumber("ordersNodes") ?? 4, reuse: "self" },
  failureAlert: { type: "web", settings: { url: config.get("ordersAlertUrl") ?? "https://alerts.example.com/orders" } },
});

/** The marketing team: a sync every six hours, alerting through the orders team's hook. */
const marketing = new etl.Pipeline("marketing", {
  name: "campaign sync",
  schedule: { interval: { amount: 6, unit: "hours" }, startAt: "2030-01-01T00:00:00Z" },
  cluster: { nodes: 2 },
  alertHookId: orders.hookId,
});

export const ordersScheduleId = orders.scheduleId;
export const ordersNextRunAt = orders.nextRunAt;
export const marketingScheduleId = marketing.scheduleId;
export const alertHookId = orders.hookId;
export const marketingAlertHookId = marketing.hookId;
