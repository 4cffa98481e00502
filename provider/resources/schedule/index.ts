import { isPlainObject, withIdsInList } from "../shared/references";
import { resourceClass } from "../shared/resource-class";
import { scheduleResource } from "./declaration";
import type { ScheduleArgs, ScheduleOutputs } from "./fields";

export { stringLiteral } from "./fields";
export type { ScheduleArgs, ScheduleOutputs, ScheduledPackageArgs, ScheduleTaskArgs } from "./fields";

/** Runs packages periodically: nightly pipelines as code. */
export const Schedule = resourceClass<ScheduleArgs, ScheduleOutputs>(scheduleResource, {
  prepare: (args) => (isPlainObject(args.task) ? { ...args, task: { ...args.task, packages: withIdsInList(args.task.packages, ["packageId"]) } } : args),
});
export type Schedule = InstanceType<typeof Schedule>;
