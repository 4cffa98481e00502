import { type PolicyResource, type StackValidationPolicy, UnknownValueError } from "@pulumi/policy";
import { isKind, named, stackOf } from "../resources";

/** Events a hook must be told of to alert on a failed job: the event itself or its whole group. */
const FAILURE_EVENTS = ["job.failed", "job"];
/** The events of a Pipeline's failureAlert left without its own. */
const DEFAULT_ALERT_EVENTS = ["job.failed"];
const DEFAULT_PATTERN = "prod";

/** Whether hook settings alert on a failed job: active (the default) and told of job failures. A value not known before `up` is given the benefit of the doubt. */
function alertsOnFailureWith(read: () => { active?: unknown; events?: unknown }, defaultEvents?: string[]): boolean {
  return known(() => {
    const { active, events = defaultEvents } = read();
    return active !== false && Array.isArray(events) && events.some((e) => FAILURE_EVENTS.includes(String(e)));
  }, true);
}

function alertsOnFailure(resource: PolicyResource): boolean {
  return isKind(resource.type, "Hook") && alertsOnFailureWith(() => ({ active: resource.props.active, events: resource.props.events }));
}

function descendsFrom(resource: PolicyResource, ancestor: PolicyResource): boolean {
  for (let parent = resource.parent; parent !== undefined; parent = parent.parent) if (parent.urn === ancestor.urn) return true;
  return false;
}

/**
 * A Pipeline alerts through the hook it declares (its child, which says what it is told of), or
 * through an existing hook it names (`alertHookId`, whose existence `up` checks). A component's own
 * inputs reach the pack only when it registers them (the dynamic component registers its outputs
 * only, among them `hookId`, which without a hook of its own is the hook named).
 */
function pipelineAlerts(pipeline: PolicyResource, resources: PolicyResource[]): boolean {
  const ownHooks = resources.filter((r) => isKind(r.type, "Hook") && descendsFrom(r, pipeline));
  if (ownHooks.length > 0) return ownHooks.some(alertsOnFailure);
  if (given(() => pipeline.props.failureAlert)) {
    return alertsOnFailureWith(() => {
      const alert = pipeline.props.failureAlert as { active?: unknown; events?: unknown };
      return { active: alert.active, events: alert.events };
    }, DEFAULT_ALERT_EVENTS);
  }
  return given(() => pipeline.props.alertHookId) || given(() => pipeline.props.hookId);
}

/** The value read, or `ifUnknown` when it is not known before `up`. */
function known<T>(read: () => T, ifUnknown: T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof UnknownValueError) return ifUnknown;
    throw error;
  }
}

/** A value not known before `up` (the id of a hook still to be made) is given. */
function given(read: () => unknown): boolean {
  return known(() => {
    const value = read();
    return value !== undefined && value !== null;
  }, true);
}

/** A schedule inside a Pipeline is covered by the Pipeline's own failureAlert, checked on the Pipeline. */
function insidePipeline(resource: PolicyResource): boolean {
  for (let parent = resource.parent; parent !== undefined; parent = parent.parent) {
    if (isKind(parent.type, "Pipeline")) return true;
  }
  return false;
}

/** No one is told of a failed production job unless the stack says who. */
export const productionAlert: StackValidationPolicy = {
  name: "etl-production-failure-alert",
  description:
    "In a production stack (name matching productionStackPattern), a Schedule needs an active Hook told of job.failed (or job), and a Pipeline an active failureAlert told of job failures, or an alertHookId.",
  enforcementLevel: "mandatory",
  configSchema: { properties: { productionStackPattern: { type: "string", default: DEFAULT_PATTERN } } },
  validateStack: (args, report) => {
    const pattern = new RegExp(args.getConfig<{ productionStackPattern: string }>().productionStackPattern, "i");
    const stack = args.resources[0] && stackOf(args.resources[0].urn);
    if (stack === undefined || !pattern.test(stack)) return;
    const hasAlert = args.resources.some(alertsOnFailure);
    for (const resource of args.resources) {
      if (isKind(resource.type, "Pipeline") && !pipelineAlerts(resource, args.resources)) {
        report(
          `${named("Pipeline", resource.name)}: a Pipeline of production stack "${stack}" needs a failureAlert told of job.failed (or job), not inactive, or an alertHookId.`,
          resource.urn,
        );
      }
      if (isKind(resource.type, "Schedule") && !hasAlert && !insidePipeline(resource)) {
        report(
          `${named("Schedule", resource.name)}: production stack "${stack}" has no active Hook with job.failed (or job) among its events to alert on a failed run.`,
          resource.urn,
        );
      }
    }
  },
};
