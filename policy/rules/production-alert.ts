import { type PolicyResource, type StackValidationPolicy, UnknownValueError } from "@pulumi/policy";
import { isKind, named, stackOf } from "../resources";

/** Events a hook must be told of to alert on a failed job: the event itself or its whole group. */
const FAILURE_EVENTS = ["job.failed", "job"];
const DEFAULT_PATTERN = "prod";

function alertsOnFailure(resource: PolicyResource): boolean {
  const events: unknown = resource.props.events;
  return isKind(resource.type, "Hook") && Array.isArray(events) && events.some((e) => FAILURE_EVENTS.includes(String(e)));
}

function descendsFrom(resource: PolicyResource, ancestor: PolicyResource): boolean {
  for (let parent = resource.parent; parent !== undefined; parent = parent.parent) if (parent.urn === ancestor.urn) return true;
  return false;
}

/**
 * A component's own inputs reach the pack only when it registers them (a program's local
 * component does not): a Pipeline alerts when it was given a failureAlert or an alertHookId, has
 * a hook output, or declared an alerting Hook among its children.
 */
function pipelineAlerts(pipeline: PolicyResource, resources: PolicyResource[]): boolean {
  return (
    given(() => pipeline.props.failureAlert) ||
    given(() => pipeline.props.alertHookId) ||
    given(() => pipeline.props.hookId) ||
    resources.some((r) => alertsOnFailure(r) && descendsFrom(r, pipeline))
  );
}

/** A value not known before `up` (the id of a hook still to be made) is given. */
function given(read: () => unknown): boolean {
  try {
    const value = read();
    return value !== undefined && value !== null;
  } catch (error) {
    if (error instanceof UnknownValueError) return true;
    throw error;
  }
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
    "In a production stack (name matching productionStackPattern), a Schedule needs a Hook told of job.failed (or job), and a Pipeline a failureAlert or an alertHookId.",
  enforcementLevel: "mandatory",
  configSchema: { properties: { productionStackPattern: { type: "string", default: DEFAULT_PATTERN } } },
  validateStack: (args, report) => {
    const pattern = new RegExp(args.getConfig<{ productionStackPattern: string }>().productionStackPattern, "i");
    const stack = args.resources[0] && stackOf(args.resources[0].urn);
    if (stack === undefined || !pattern.test(stack)) return;
    const hasAlert = args.resources.some(alertsOnFailure);
    for (const resource of args.resources) {
      if (isKind(resource.type, "Pipeline") && !pipelineAlerts(resource, args.resources)) {
        report(`${named("Pipeline", resource.name)}: a Pipeline of production stack "${stack}" needs a failureAlert or an alertHookId.`, resource.urn);
      }
      if (isKind(resource.type, "Schedule") && !hasAlert && !insidePipeline(resource)) {
        report(
          `${named("Schedule", resource.name)}: production stack "${stack}" has no Hook with job.failed (or job) among its events to alert on a failed run.`,
          resource.urn,
        );
      }
    }
  },
};
