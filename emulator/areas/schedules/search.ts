import type { SortKeys } from "../../sorting";
import type { SearchSpace } from "../../search";
import type { Store } from "../../store";
import { PACKAGES } from "../packages/model";
import type { ScheduleRow } from "./model";

/** What a schedule search looks at (facts, "Schedules"): id, name, description, status, package. */

const contains = (text: string, word: string): boolean => text.toLowerCase().includes(word);

/** `package` matches a package's id exactly, or its name in part. */
function hasPackage(store: Store, schedule: ScheduleRow, value: string): boolean {
  return schedule.task.packages.some(({ packageId }) => {
    const name = store.find(PACKAGES, schedule.accountId, packageId)?.name ?? "";
    return String(packageId) === value || contains(name, value);
  });
}

export function scheduleSearch(store: Store): SearchSpace<ScheduleRow> {
  return {
    attributes: {
      id: (schedule, value) => String(schedule.id) === value,
      name: (schedule, value) => contains(schedule.name, value),
      description: (schedule, value) => contains(schedule.description, value),
      status: (schedule, value) => schedule.status === value,
      package: (schedule, value) => hasPackage(store, schedule, value),
    },
    dates: {
      created: (schedule) => Date.parse(schedule.createdAt),
      updated: (schedule) => Date.parse(schedule.updatedAt),
    },
    text: (schedule, word) => contains(schedule.name, word) || contains(schedule.description, word),
  };
}

/** The sorts of a search; `relevance` puts the results matching more terms first when ascending. */
export function scheduleSortKeys(scores: ReadonlyMap<number, number>): SortKeys<ScheduleRow> {
  return {
    id: (schedule) => schedule.id,
    updated: (schedule) => schedule.updatedAt,
    created: (schedule) => schedule.createdAt,
    name: (schedule) => schedule.name,
    relevance: (schedule) => -(scores.get(schedule.id) ?? 0),
  };
}
