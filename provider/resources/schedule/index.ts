import { resourceClass } from "../shared/resource-class";
import { fields, type ScheduleArgs, type ScheduleOutputs } from "./fields";

export { stringLiteral } from "./fields";
export type { ScheduleArgs, ScheduleOutputs, ScheduledPackageArgs, ScheduleTaskArgs } from "./fields";

/** Runs packages periodically: nightly pipelines as code. */
export const Schedule = resourceClass<ScheduleArgs, ScheduleOutputs>("Schedule", fields.outputNames);
export type Schedule = InstanceType<typeof Schedule>;
