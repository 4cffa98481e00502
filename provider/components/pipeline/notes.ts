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
  "- `schedule`: `cron` with `timeZone` (a zone of the service, `getTimeZones`, or an IANA name; default UTC), or `interval` with an optional `startAt`. A cron is standard cron, spelt any way: five fields of numbers, names (`jan`, `SUN`, any case; day of week 0 or 7 for Sunday), `*`, lists, ranges and steps (`0,30`, `9-17`, `0-59/20`, `5/15`, `*/1`), or `@hourly`, `@daily`, `@midnight`, `@weekly`, `@monthly`, `@yearly`, `@annually`. It is read as its fields' values, so every spelling of the same times is taken or refused alike. The service repeats one interval from a first run, counted in UTC, so a cron is taken when its runs are one interval that the service keeps at every run in the zone: times of every day evenly spaced by a step that divides the day (`*/20 * * * *`, `0,30 * * * *`, `0 */6 * * *`, `0 6,18 * * *`, `@hourly`, `@daily`); one time on one day of the week (`0 6 * * SUN`, `@weekly`); or one time on one day of the month in evenly spaced months (`0 6 1 * *`, `0 0 1 */3 *`, `0 6 15 jan *`, `@monthly`, `@yearly`), each of its runs over 28 years checked.",
  "",
  "  Any other cron fails the preview, naming `schedule.cron`, the rule and the nearest exact forms (each of them taken in that zone), before any call, rather than run at other times: runs no one interval repeats (`0 6 * * 1-5`, `0 6 1,15 * *`, `0 9-17 * * *`, a minute step that does not divide 60: `*/45` is minutes 0 and 45 of each hour, so `*/30` or `0 * * * *` instead); in a zone with summer time, a step its clock changes do not keep (a daily or weekly time, any step of an hour or more, more than 30 minutes at Lord Howe, whose clock moves by half an hour; give it in UTC: `0 5 * * *` is 06:00 in Berlin in winter and 07:00 in summer), though a monthly or yearly time whose months all keep one offset is taken (`0 6 15 jan *` in Berlin); a day some of its months lack (`0 6 31 * *`: cron skips those months, the service would run on their last day); and a time whose day in UTC would move the service's months to another day there (`0 22 28 * *` in Bogota is the 29th in UTC, which February lacks). Also refused: a `*/N` day field beside a restricted other day field, which cron programs read two ways (a day matching both, or either); a minute step of 60 or more (`*/90` is minute 0 of each hour in cron: give `interval` for every 90 minutes); a range that runs backwards (`22-2`); and `L`, `W`, `#`, `?` and seconds, which are not standard cron.",
  "",
  "  `test/unit/pipeline-cron.test.ts` holds 320 generated crons of every spelling in ten zones (with and without summer time, half-hour and three-quarter offsets, north and south) to an independent cron evaluator: each one taken runs at exactly the cron's times, with the interval and first run the evaluator finds, and each one refused has no such interval. A cron's first run is its first time on or after 2026-01-01 in the zone, so the same cron always gives the same schedule (the service starts from the next such time after now; a preview warns of nothing, since that first time is the Pipeline's, not one you wrote).",
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
