import { withIds } from "../shared/references";
import { resourceClass } from "../shared/resource-class";
import { jobRunResource } from "./declaration";
import type { JobRunArgs, JobRunOutputs } from "./fields";

export type { JobRunArgs, JobRunOutput, JobRunOutputs } from "./fields";

/** One run of a package's workflow on a cluster. Timestamps the job does not have yet are undefined. */
export const JobRun = resourceClass<JobRunArgs, JobRunOutputs>(jobRunResource, { prepare: (args) => withIds(args, ["clusterId", "packageId"]) });
export type JobRun = InstanceType<typeof JobRun>;
