import { scheduleRecord } from "../../api/schedules";
import { declareResource } from "../shared/declaration";
import { scheduleExport } from "./export";
import { fields } from "./fields";
import { scheduleProvider } from "./provider";
import { scheduleRecover } from "./recover";

export const scheduleResource = declareResource({
  kind: "Schedule",
  description: "Runs a package on a cluster at set times.",
  provider: scheduleProvider,
  recover: scheduleRecover,
  export: scheduleExport,
  fields,
  record: scheduleRecord,
  secrets: [],
  example: {
    name: "nightly orders rollup",
    startAt: "2030-01-01T02:00:00Z",
    interval: { amount: 1, unit: "days" },
    task: { nodes: 2, packages: [{ packageId: 101 }] },
  },
});
