/**
 * What a `Pipeline` declares: a Package with its flow, a Schedule that runs it on a cluster, a Hook
 * that alerts on failed jobs (unless an existing one is named, which the Package reads before it
 * is made) and a Delivery when asked for, each a child of the component. Both surfaces declare
 * the same children with the same arguments; only how a child is made differs (a dynamic
 * resource, or the plugin's own resource type), so the surface passes a `ChildMaker`.
 */
import * as pulumi from "@pulumi/pulumi";
import { checkWithSchema } from "../../resources/shared/check";
import { type PipelineArgs, pipelineInputs } from "./args";
import { type ScheduleTiming, timingOfCron } from "./cron";

export type ChildKind = "Package" | "Schedule" | "Hook" | "Delivery";

export type ChildMaker = (kind: ChildKind, name: string, args: Record<string, unknown>, opts: pulumi.CustomResourceOptions) => pulumi.CustomResource;

function outputOf<T>(child: pulumi.CustomResource, name: string): pulumi.Output<T> {
  return (child as unknown as Record<string, pulumi.Output<T>>)[name]!;
}

export interface PipelineOutputs {
  packageId: pulumi.Output<string>;
  scheduleId: pulumi.Output<string>;
  nextRunAt: pulumi.Output<string | undefined>;
  hookId: pulumi.Output<string | undefined>;
  deliveryId: pulumi.Output<string | undefined>;
}

/** The program gave something wrong: each failure names the input and the rule (a `RunError`, so no stack trace is printed). */
export class PipelineInputError extends pulumi.RunError {
  constructor(
    readonly pipeline: string,
    readonly failures: { property: string; reason: string }[],
  ) {
    super(`Pipeline "${pipeline}": ${failures.map((failure) => failure.reason).join("; ")}`);
    this.name = "PipelineInputError";
  }
}

function holdsOutputs(value: unknown): boolean {
  if (pulumi.Output.isInstance(value) || value instanceof Promise || pulumi.Resource.isInstance(value)) return true;
  if (Array.isArray(value)) return value.some(holdsOutputs);
  if (typeof value === "object" && value !== null) return Object.values(value).some(holdsOutputs);
  return false;
}

/** The inputs given as plain values are checked at once, before anything is declared; the others by the children that take them. */
export function checkPlainInputs(name: string, args: PipelineArgs): void {
  const missing = (["name", "schedule"] as const).filter((key) => args[key] === undefined);
  if (missing.length > 0)
    throw new PipelineInputError(
      name,
      missing.map((key) => ({ property: key, reason: `${key} is required` })),
    );
  const plain = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined && !holdsOutputs(value)));
  const result = checkWithSchema(pipelineInputs.partial(), plain);
  if (!result.ok) throw new PipelineInputError(name, result.failures);
  if (plain.schedule !== undefined) timingOf(name, plain.schedule as ScheduleGiven);
  refuseBoth(name, args, "failureAlert", "alertHookId", "give failureAlert (a hook the pipeline declares) or alertHookId (an existing hook), not both");
  refuseBoth(name, args, "flow", "template", "give flow (the package's own) or template (a template and its connections), not both");
}

function refuseBoth(name: string, args: PipelineArgs, first: keyof PipelineArgs, second: keyof PipelineArgs, reason: string): void {
  if (args[first] !== undefined && args[second] !== undefined) throw new PipelineInputError(name, [{ property: second, reason }]);
}

type ScheduleGiven = { cron?: string; interval?: ScheduleTiming["interval"]; timeZone?: string; startAt?: string };

/** The schedule's interval and first run, from a cron or as given. */
function timingOf(pipeline: string, schedule: ScheduleGiven): Partial<ScheduleTiming> {
  const fail = (property: string, reason: string) => {
    throw new PipelineInputError(pipeline, [{ property, reason }]);
  };
  if ((schedule.cron === undefined) === (schedule.interval === undefined)) fail("schedule", "schedule must give one of cron and interval");
  if (schedule.cron === undefined) {
    if (schedule.timeZone !== undefined) fail("schedule.timeZone", "schedule.timeZone is for a cron: an interval starts at startAt");
    return { interval: schedule.interval, ...(schedule.startAt === undefined ? {} : { startAt: schedule.startAt }) };
  }
  if (schedule.startAt !== undefined) fail("schedule.startAt", "schedule.startAt is for an interval: a cron's first run is its first time");
  const timing = timingOfCron(schedule.cron, schedule.timeZone ?? "UTC");
  if (!timing.ok) return fail(`schedule.${timing.message.startsWith("timeZone") ? "timeZone" : "cron"}`, `schedule.${timing.message}`);
  return timing.timing;
}

/** One field of an input object that may be an output, or undefined when the object is left out. */
function part<T extends object, K extends keyof T>(value: pulumi.Input<T | undefined> | undefined, key: K): pulumi.Output<T[K] | undefined> {
  return pulumi.output(value as pulumi.Input<T | undefined>).apply((given) => (given as T | undefined)?.[key]) as pulumi.Output<T[K] | undefined>;
}

/** Declares the children under `parent` and returns the pipeline's outputs. */
export function declarePipeline(parent: pulumi.Resource, name: string, args: PipelineArgs, make: ChildMaker): PipelineOutputs {
  const opts: pulumi.CustomResourceOptions = { parent };
  const packageArgs = {
    name: args.name,
    description: args.description,
    dataFlow: args.flow,
    variables: args.variables,
    ...(args.template === undefined
      ? {}
      : {
          templateId: part(args.template, "id"),
          sourceConnectionId: part(args.template, "sourceConnectionId"),
          destinationConnectionId: part(args.template, "destinationConnectionId"),
        }),
  };
  // An existing hook is read when the package is made: the package comes first, and every other child after it.
  const alertHook = args.alertHookId === undefined ? {} : { alertHookId: args.alertHookId };
  const pkg = make("Package", `${name}-package`, { ...packageArgs, ...alertHook }, opts);
  const hook =
    args.failureAlert === undefined
      ? undefined
      : make(
          "Hook",
          `${name}-alert`,
          {
            type: part(args.failureAlert, "type"),
            name: pulumi.interpolate`${args.name} failures`,
            events: part(args.failureAlert, "events").apply((events) => events ?? ["job.failed"]),
            active: part(args.failureAlert, "active"),
            settings: part(args.failureAlert, "settings"),
          },
          opts,
        );
  const timing = pulumi.output(args.schedule).apply((given) => timingOf(name, given as ScheduleGiven));
  const scheduleChild = make(
    "Schedule",
    `${name}-schedule`,
    {
      name: args.name,
      enabled: part(args.schedule, "enabled"),
      interval: timing.apply((given) => given.interval),
      startAt: timing.apply((given) => given.startAt),
      reuseClusterStrategy: part(args.cluster, "reuse"),
      task: {
        nodes: part(args.cluster, "nodes"),
        terminateOnIdle: part(args.cluster, "terminateOnIdle"),
        timeToIdle: part(args.cluster, "timeToIdle"),
        packages: [{ packageId: pkg.id }],
      },
    },
    // An alert declared with the pipeline is there before its first run.
    hook === undefined ? opts : { ...opts, dependsOn: [hook] },
  );
  const delivery =
    args.delivery === undefined
      ? undefined
      : make(
          "Delivery",
          `${name}-delivery`,
          {
            name: pulumi.interpolate`${args.name} delivery`,
            source: part(args.delivery, "source"),
            destination: part(args.delivery, "destination"),
            interval: part(args.delivery, "interval"),
          },
          args.alertHookId === undefined ? opts : { ...opts, dependsOn: [pkg] },
        );
  return {
    packageId: pkg.id,
    scheduleId: scheduleChild.id,
    nextRunAt: outputOf<string | undefined>(scheduleChild, "nextRunAt"),
    hookId: hook !== undefined ? hook.id : pulumi.output(args.alertHookId).apply((id) => (id === undefined ? undefined : String(id))),
    deliveryId: delivery === undefined ? pulumi.output(undefined) : delivery.id,
  };
}
