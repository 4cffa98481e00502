/** Exporting schedules: the packages a task runs as references to the exported packages. */
import { scheduleRecord, type ScheduleRecord } from "../../api/schedules";
import type { ExportDeclaration } from "../shared/exported";

type TaskInputs = { packages: Array<{ packageId: number; variables?: Record<string, string> }> } & Record<string, unknown>;

export const scheduleExport: ExportDeclaration<ScheduleRecord> = {
  listing: { method: "GET", path: "/schedules", query: { direction: "asc", limit: 100 } },
  item: scheduleRecord,
  name: (schedule) => schedule.name,
  inputs: (inputs, _schedule, context) => {
    const task = inputs.task as TaskInputs;
    const packages = task.packages.map((item) => ({ ...item, packageId: context.reference("Package", item.packageId) }));
    return { ...inputs, task: { ...task, packages } };
  },
};
