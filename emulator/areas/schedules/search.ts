import { contains, exactly, inPart, type SearchSpace } from "../../search";
import type { Store } from "../../store";
import { packageSummary } from "../packages/interface";
import type { ScheduleRow } from "./model";

/** What a schedule search looks at (facts, "Schedules"): id, name, description, status, package. */

/** `package` matches a package's id exactly, or its name in part. */
function hasPackage(store: Store, schedule: ScheduleRow, value: string): boolean {
  return schedule.task.packages.some(({ packageId }) => {
    const name = packageSummary(store, schedule.accountId, packageId)?.name ?? null;
    return String(packageId) === value || contains(name, value);
  });
}

export function scheduleSearch(store: Store): SearchSpace<ScheduleRow> {
  return {
    attributes: {
      id: exactly((schedule) => schedule.id),
      name: inPart((schedule) => schedule.name),
      description: inPart((schedule) => schedule.description),
      status: exactly((schedule) => schedule.status),
      package: (schedule, value) => hasPackage(store, schedule, value),
    },
    text: inPart(
      (schedule) => schedule.name,
      (schedule) => schedule.description,
    ),
  };
}
