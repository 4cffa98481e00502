/**
 * What a user should know of the Pipeline component beyond its inputs' descriptions, rendered on
 * its reference page as a kind's `summary` and `notes` are (markdown, one line an element).
 */
/** Its line in the README's table of kinds. */
export const PIPELINE_SUMMARY = "A team's set-up in one declaration: a package, the schedule and cluster that run it, a failure alert and a delivery.";

export const PIPELINE_NOTES: readonly string[] = [
  "Each child is an ordinary resource under the component (`<name>-package`, `<name>-schedule`, `<name>-alert`, `<name>-delivery`): a preview shows each, a change behaves as that resource's change does (a new cron updates the schedule in place), and `destroy` removes them all. The plugin serves it to every language (`Construct`; schema `isComponent`), and the `pulumi-etl` package offers the same class to TypeScript programs on the dynamic resources.",
  "",
  "```ts",
  'import * as fs from "node:fs";',
  'import * as pulumi from "@pulumi/pulumi";',
  'import * as etl from "pulumi-etl";',
  "",
  "const config = new pulumi.Config();",
  'const orders = new etl.Pipeline("orders", {',
  '  name: "orders rollup",',
  '  flow: fs.readFileSync("flows/orders.json", "utf8"),',
  '  schedule: { cron: "0 6 * * *", timeZone: "Asia/Tokyo" },',
  "  cluster: { nodes: 4 },",
  '  failureAlert: { type: "slack", settings: { url: config.requireSecret("slackWebhook"), channel: "#etl" } },',
  "});",
  "export const nextRunAt = orders.nextRunAt;",
  "```",
  "",
  "- `schedule`: `cron` with `timeZone` (a zone of the service, `getTimeZones`, or an IANA name; default UTC), or `interval` with an optional `startAt`. The service repeats a fixed interval, so a cron is one of `*/N * * * *`, `M * * * *`, `M H * * *`, `M H * * D` or `M H D * *` (D up to 28); any other form fails the preview, naming `schedule.cron`, before any call. The service repeats one interval in UTC, so a cron whose times it would not keep fails the preview too, naming the rule and the nearest exact forms, rather than run at other times: a minute step that does not divide 60 (`*/45` is minutes 0 and 45 of each hour: `*/30` or `0 * * * *` instead), a daily, weekly or monthly time in a zone with summer time (give it in UTC: `0 5 * * *` is 06:00 in Berlin in winter and 07:00 in summer), and a monthly 28th that is already the 29th in UTC. `test/unit/pipeline-cron.test.ts` holds every accepted form to an independent cron evaluator's run times in ten zones, around each clock change. A cron's first run is its first time on or after 2026-01-01 in the zone, so the same cron always gives the same schedule (the service starts from the next such time after now; a preview warns of nothing, since that first time is the Pipeline's, not one you wrote).",
  "",
  "- `cluster`: `nodes` (default 2), `terminateOnIdle`, `timeToIdle`, `reuse` (`any`, `self`, `none`).",
  "",
  "- `failureAlert` declares a hook (`type`, `settings` as `Hook` takes them, kept secret; `events`, default `job.failed`; `active`, default true); `alertHookId` names an existing one instead, which `up` reads before any child is made (its package takes the id, and every other child comes after it): a hook the account does not have fails `up` naming `alertHookId`, with nothing made. The service tells a hook of every job of the account, so one team hook can serve several pipelines.",
  "",
  "- `flow` is its package's `dataFlow`, and checked as `Package` checks it: a connection it names that the account does not have fails `up` on `<name>-package` before anything is sent, naming it as the package's input: `dataFlow.components.1.connection.id 999999: no connection with this id in account acme` is the connection of the pipeline's `flow.components[1]`. No child is made.",
  "",
  "- `template` in place of `flow`: `{ id, sourceConnectionId, destinationConnectionId }`, the package made from a template as `Package` makes it (its connections read first, as a flow's are).",
  "",
  "- `delivery`: `source` and `destination` (`connection: { id, type }`, `properties`) and `interval`.",
  "",
  "- Inputs given as plain values are checked at once, before anything is declared; values that are other resources' outputs are checked by the child that takes them.",
  "",
  "[examples/platform-team](../../../examples/platform-team) declares two teams' pipelines and runs its preview with the platform's [policy pack](../../policy.md).",
];
