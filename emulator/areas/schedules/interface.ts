/**
 * What other areas may know of schedules: how a job a schedule started names its creator, and
 * how run times follow from a start and an interval, which deliveries count the same way.
 */

export { scheduleCreatorJson } from "./json";
export { firstRunFrom } from "./timing";
