/**
 * What a `Pipeline` takes, written once: the rule that checks it, the plugin's schema (and so the
 * SDKs and the reference page) and the program's type all come from `PIPELINE_INPUTS`, each input
 * with its description. What a child resource checks (a flow, a hook's settings, a connection's
 * type) is left to that child, so the message names the same rule whichever way it is declared.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { CLUSTER_NODES, SCHEDULE_INTERVAL_AMOUNT_MIN } from "../../../contract/limits";
import { HOOK_EVENT_IDS, HOOK_TYPES, SCHEDULE_INTERVAL_UNITS, SCHEDULE_REUSE_CLUSTER_STRATEGIES } from "../../../contract/vocabularies";

/** The component's type token, the same on both surfaces, so a policy or a `getResource` finds it either way. */
export const PIPELINE_TYPE = "etl:index:Pipeline";

const described = <S extends z.ZodType>(schema: S, description: string): S => schema.meta({ description });

const id = z.union([z.number().int().positive(), z.string().regex(/^\d+$/, "must be a positive integer")]);

const interval = z.strictObject({
  amount: described(z.number().int().min(SCHEDULE_INTERVAL_AMOUNT_MIN), "How many units between runs."),
  unit: described(z.enum(SCHEDULE_INTERVAL_UNITS), "`minutes`, `hours`, `days`, `weeks` or `months`."),
});

const schedule = z.strictObject({
  cron: described(
    z.string().optional(),
    "When it runs, as standard cron in any spelling (numbers, names, lists, ranges, steps, `@daily` and the other macros). Give this or `interval`. It is taken when its runs are one interval the service keeps in `timeZone`: times of every day evenly spaced (`*/20 * * * *`, `0 */6 * * *`, `@daily`), one time on one day of the week (`0 6 * * SUN`) or one day of the month in evenly spaced months (`@monthly`, `0 0 1 */3 *`, `@yearly`); any other cron is refused, naming the rule and the nearest exact forms.",
  ),
  interval: described(interval.optional(), "Time between runs, from `startAt`. Give this or `cron`."),
  timeZone: described(
    z.string().optional(),
    "The zone a cron's times are in: a time zone of the service (`Tokyo`, `getTimeZones`) or an IANA name (`Asia/Tokyo`); default UTC. The service repeats in UTC, without summer time: a daily or weekly cron, or a step of an hour or more, needs a zone that keeps one offset all year, and a monthly or yearly one months that keep one offset.",
  ),
  startAt: described(z.string().optional(), "With `interval`: the first run, an ISO 8601 date-time; left out, the service starts at creation."),
  enabled: described(z.boolean().optional(), "Whether the schedule runs; default true."),
});

const cluster = z.strictObject({
  nodes: described(z.number().int().min(CLUSTER_NODES.min).max(CLUSTER_NODES.max).optional(), "Nodes of the cluster each run runs on; default 2."),
  terminateOnIdle: described(z.boolean().optional(), "Whether a cluster the schedule creates terminates when idle; default true."),
  timeToIdle: described(z.number().int().optional(), "Seconds such a cluster may stay idle; default 60."),
  reuse: described(
    z.enum(SCHEDULE_REUSE_CLUSTER_STRATEGIES).optional(),
    "`any` (the default): a ready cluster with enough nodes; `self`: one this pipeline's schedule made; `none`: always a new one.",
  ),
});

const template = z.strictObject({
  id: described(z.number().int().positive(), "The template's id (`getPackageTemplates` lists them)."),
  sourceConnectionId: described(id, "The connection every source of the template's flow reads."),
  destinationConnectionId: described(id, "The connection every destination of the template's flow writes."),
});

const failureAlert = z.strictObject({
  type: described(z.enum(HOOK_TYPES), "The type of the hook the pipeline declares: `web`, `slack`, `email`, `hipchat` or `pagerduty`."),
  settings: described(z.record(z.string(), z.unknown()), "That hook's settings, as `Hook` takes them (a web hook's `url`); kept encrypted."),
  events: described(z.array(z.enum(HOOK_EVENT_IDS)).min(1).optional(), "The events it alerts on; default `job.failed`."),
  active: described(z.boolean().optional(), "Whether the hook is told of events; default true."),
});

const end = z.strictObject({
  connection: described(
    z.strictObject({ id: described(id, "The connection's id."), type: described(z.string(), "The connection's type, e.g. `postgres`.") }),
    "The connection: its id and type.",
  ),
  properties: described(z.record(z.string(), z.unknown()).optional(), "What to read or write there (`table`, `path`, `schema`, …)."),
});

const delivery = z.strictObject({
  source: described(end, "The connection the delivery reads."),
  destination: described(end, "The connection it writes: a database or cloud storage."),
  interval: described(interval.optional(), "Time between deliveries; default one day."),
});

/** Every input of a `Pipeline`, with what it is. */
export const PIPELINE_INPUTS = {
  name: described(
    // The hook and delivery it declares are named "<name> failures" and "<name> delivery", which the service takes up to 255 characters.
    z.string().min(1).max(246),
    "The pipeline's name (1 to 246 characters): its package's and schedule's, and the start of its children's names (its alert is \"<name> failures\", its delivery \"<name> delivery\").",
  ),
  description: described(z.string().optional(), "The package's description."),
  flow: described(
    z.unknown().optional(),
    "The package's flow, as `Package.dataFlow` takes it (`{ components, edges }` or an export document). Give this or `template`.",
  ),
  template: described(
    template.optional(),
    "A template the package starts from, with the connections its sources read and its destinations write. Give this or `flow`.",
  ),
  variables: described(z.record(z.string(), z.string()).optional(), "Package-level defaults of the variables its flow uses."),
  schedule: described(schedule, "When the package runs: `cron` (with `timeZone`) or `interval`."),
  cluster: described(cluster.optional(), "The cluster each run runs on."),
  failureAlert: described(failureAlert.optional(), "A hook the pipeline declares, told of its failed runs. Give this or `alertHookId`."),
  alertHookId: described(id.optional(), "An existing hook that is told of failed runs, by its id. Give this or `failureAlert`."),
  delivery: described(delivery.optional(), "A delivery the pipeline declares beside its package."),
};

export const pipelineInputs = z.strictObject(PIPELINE_INPUTS);

/** A program may give any value, however deep, as another resource's output. */
type DeepInput<T> = pulumi.Input<T extends readonly (infer E)[] ? DeepInput<E>[] : T extends object ? { [K in keyof T]: DeepInput<T[K]> } : T>;

/** What a program passes to `Pipeline`. */
export type PipelineArgs = { [K in keyof z.input<typeof pipelineInputs>]: DeepInput<z.input<typeof pipelineInputs>[K]> };

/** What each output of a `Pipeline` is. */
export const PIPELINE_OUTPUTS = {
  packageId: "The id of the pipeline's package.",
  scheduleId: "The id of its schedule.",
  nextRunAt: "When the schedule runs next.",
  hookId: "The id of the hook that alerts on failures: the pipeline's own or the one given; unset without `failureAlert`.",
  deliveryId: "The id of its delivery; unset without `delivery`.",
} as const;

/** The pipeline of the reference page's examples. */
export const PIPELINE_EXAMPLE = {
  name: "orders rollup",
  variables: { region: "'eu'" },
  schedule: { cron: "0 6 * * *", timeZone: "Asia/Tokyo" },
  cluster: { nodes: 4 },
  failureAlert: { type: "web", settings: { url: "https://alerts.example.com/etl" } },
};
