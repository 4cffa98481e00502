/** A cron's values read as one interval and weighed in its zone: the one rule that takes or refuses every spelling. */
import type { CronSets } from "./cron-fields";
import { type Exactness, exactness } from "./cron-exact";
import { type ShapeProblem, shapeOf } from "./cron-shape";

/** The interval a cron's values are and whether the zone keeps it, or why they are no one interval. */
export function readingOf(sets: CronSets, zone: string, now: number): Exactness | ShapeProblem {
  const shape = shapeOf(sets);
  return shape.kind === "uneven-times" || shape.kind === "days" ? shape : exactness(shape, zone, now);
}

/** Whether the service runs a cron's values at exactly its times in the zone. */
export function isExact(sets: CronSets, zone: string, now: number): boolean {
  const reading = readingOf(sets, zone, now);
  return "start" in reading && reading.inexact === undefined;
}
