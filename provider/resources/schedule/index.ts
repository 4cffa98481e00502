import { resourceClass } from "../shared/resource-class";
import type { ScheduleArgs, ScheduleOutputs } from "./fields";

export { stringLiteral } from "./fields";
export type { ScheduleArgs, ScheduleOutputs, ScheduledPackageArgs, ScheduleTaskArgs } from "./fields";

/** Runs packages periodically: nightly pipelines as code. */
export const Schedule = resourceClass<ScheduleArgs, ScheduleOutputs>("Schedule");
export type Schedule = InstanceType<typeof Schedule>;
